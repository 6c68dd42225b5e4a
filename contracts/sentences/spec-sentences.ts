import { specDocument } from '../../spec/spec-artifacts.js';
import { THE_SPEC, type Requirement } from '../core/requirement.js';

/** One sentence of the spec's prose, and where it stands (a JSON pointer into `spec/openapi.yaml`). */
export interface SpecSentence {
  where: string;
  sentence: string;
}

// Examples are data, not prose; summaries name things and promise nothing.
const NOT_PROSE = new Set(['example', 'examples', 'summary']);

function descriptions(node: unknown, where: string): SpecSentence[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => descriptions(item, `${where}/${index}`));
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) => {
    if (key === 'description' && typeof value === 'string') return [{ where, sentence: value }];
    return NOT_PROSE.has(key) ? [] : descriptions(value, `${where}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  });
}

let ofTheSpec: readonly SpecSentence[] | undefined;

/**
 * Every sentence of every `description` in the spec (info, paths, operations, parameters, responses,
 * schemas and their properties, headers, security schemes), whitespace folded; a list item is a sentence.
 * @example specSentences().find(({ sentence }) => sentence === 'Every category, in ascending id order.')
 */
export function specSentences(document?: object): readonly SpecSentence[] {
  if (document === undefined) return (ofTheSpec ??= specSentences(specDocument()));
  return descriptions(document, '#').flatMap(({ where, sentence: text }) =>
    text
      .split(/\n\s*-\s+|\n\s*\n/)
      .flatMap((part) =>
        part
          .replace(/\s+/g, ' ')
          .trim()
          .split(/(?<!\be\.g\.)(?<=\.)\s+(?=[A-Z`])/),
      )
      .map((sentence) => sentence.trim())
      .filter((sentence) => sentence !== '')
      .map((sentence) => ({ where, sentence })),
  );
}

/** A phrase that finds no sentence of the spec, or more than one: the spec was reworded under a key. */
export class SpecPhraseError extends Error {
  override readonly name = 'SpecPhraseError';
}

/** The sentences that hold `phrase` (a sentence the spec writes in two places counts once). */
export function sentencesHolding(phrase: string, sentences: readonly SpecSentence[] = specSentences()): string[] {
  return [...new Set(sentences.filter(({ sentence }) => sentence.includes(phrase)).map(({ sentence }) => sentence))];
}

/**
 * The one sentence of `spec/openapi.yaml` that holds `phrase`, read from the spec, never copied: a key
 * such as `'Every category, in ascending'` stays valid while the sentence keeps those words. Throws a
 * {@link SpecPhraseError} naming the phrase and what it found when it finds no sentence or several.
 * @example specSentence('Not paginated') // 'Not paginated.'
 */
export function specSentence(phrase: string, sentences: readonly SpecSentence[] = specSentences()): string {
  const found = sentencesHolding(phrase, sentences);
  if (found.length === 1) return found[0]!;
  throw new SpecPhraseError(
    found.length === 0
      ? `[contracts] no sentence of ${THE_SPEC} holds "${phrase}": the spec was reworded; give the key words of the sentence it means now`
      : `[contracts] "${phrase}" is in ${found.length} sentences of ${THE_SPEC}, a key finds one; lengthen it. It finds: ${found.map((sentence) => `"${sentence}"`).join(', ')}`,
  );
}

/**
 * The requirement of the spec's sentences that hold each phrase, quoted from `spec/openapi.yaml` as it
 * reads now, joined by ` … ` (the way a quote skips what stands between). Throws as {@link specSentence}.
 * @example theSpecSays(['Missing or invalid keys give 401']).quote // 'Missing or invalid keys give 401.'
 */
export function theSpecSays(phrases: readonly string[], binds: Requirement['binds'] = 'server'): Requirement {
  return { quote: phrases.map((phrase) => specSentence(phrase)).join(' … '), where: THE_SPEC, binds };
}
