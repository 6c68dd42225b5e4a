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

/** The rule or promise a warning is about: the name before its first colon. */
export function warningRule(warning: string): string {
  return warning.slice(0, Math.max(0, warning.indexOf(':'))) || 'warning';
}
