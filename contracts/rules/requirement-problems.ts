import { THE_SPEC, type Requirement } from '../core/requirement.js';
import { specSentences } from '../sentences/spec-sentences.js';
import type { Strength } from './rule-table.js';

// RFC 2119 keywords of an absolute requirement.
const ABSOLUTE = /\b(MUST|MUST NOT|REQUIRED|SHALL|SHALL NOT)\b/;

/** The parts of a quote: sentences joined by ` … ` where they stand apart in their source. */
const partsOf = (quote: string) => quote.split(' … ').map((part) => part.trim());

/**
 * What is wrong with a row's claim to its strength: a MUST needs a requirement on the server, quoted
 * (the spec's own sentence, found in `spec/openapi.yaml`, or an RFC's MUST); a requirement on the
 * sender of the request, or on nobody, can only warn. Empty when the row is sound.
 * @example requirementProblems('date_on_answers', 'MUST', RULES.date_on_answers.requirement) // []
 */
export function requirementProblems(name: string, strength: Strength, requirement: Requirement | undefined): string[] {
  if (!requirement || requirement.quote.trim() === '') return [`${name}: no quoted requirement`];
  const problems: string[] = [];
  if (requirement.where === THE_SPEC) {
    const prose = specSentences().map(({ sentence }) => sentence);
    for (const part of partsOf(requirement.quote))
      if (!prose.some((sentence) => sentence.includes(part)))
        problems.push(`${name}: quotes "${part}", which spec/openapi.yaml does not say`);
  }
  if (strength === 'MUST') {
    if (requirement.binds !== 'server')
      problems.push(
        `${name}: a MUST quoting a requirement on ${requirement.binds === 'sender' ? 'the sender' : 'nobody'}`,
      );
    if (requirement.where !== THE_SPEC && !ABSOLUTE.test(requirement.quote))
      problems.push(`${name}: a MUST whose quote (${requirement.where}) has no MUST, REQUIRED or SHALL`);
  }
  return problems;
}
