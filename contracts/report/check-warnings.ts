import type { CheckResult } from '../runner/check-result.js';

const NOTE_PREFIX = 'warning ';

/**
 * Every warning of a check, once: the SHOULDs its answers broke (`result.warnings`, each with its curl)
 * and the warnings it could only say as a note (a rule broken where no answer came, a parser's
 * refusal), which the terminal printed as they came and a report must not lose.
 * @example warningsOf(result) // ['cache_control_on_keyed_answers: GET answered 200: ...; curl -X GET ...']
 */
export function warningsOf(result: CheckResult): string[] {
  const judged = result.warnings ?? [];
  // The model notes each warning it keeps as `warning <text>` too: the same one, without its curl.
  const noted = result.notes
    .filter((note) => note.startsWith(NOTE_PREFIX))
    .map((note) => note.slice(NOTE_PREFIX.length))
    .filter((text) => !judged.some((warning) => warning.startsWith(text)));
  return [...judged, ...noted];
}

/** A warning as a report shows it: the rule it is about, what came (its `Received` line), the curl of the answer that showed it. */
export interface WarningParts {
  rule: string;
  /** `Received: ... / Expected: ...`, or the warning's own words when it has no such line. */
  received: string;
  curl?: string;
  text: string;
}

/**
 * A warning's parts, read from the one form run-check writes (`rule: title; line; ...; curl ...`).
 * @example warningParts('server_version_hidden: GET answered 200: ...; Received: server: nginx/1.25.3 / Expected: ...; curl -X GET ...')
 */
export function warningParts(text: string): WarningParts {
  const colon = text.indexOf(':');
  const rule = colon > 0 ? text.slice(0, colon) : 'warning';
  const curlAt = text.lastIndexOf('; curl ');
  const curl = curlAt >= 0 ? text.slice(curlAt + 2) : undefined;
  const words = (curlAt >= 0 ? text.slice(0, curlAt) : text).slice(colon + 1).trim();
  const received = words.split('; ').find((part) => part.startsWith('Received: ')) ?? words;
  return { rule, received, ...(curl !== undefined && { curl }), text };
}
