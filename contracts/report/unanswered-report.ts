import type { Reachability, UnansweredExchange } from '../transport/unanswered.js';
import { xmlText } from './xml-text.js';

/** The JUnit testcase, and the name every report gives the finding, of requests the target answered. */
export const TARGET_ANSWERED = 'target_answered';

/** How many unanswered requests the text and JUnit reports list (the JSON keeps them all). */
const LISTED = 10;

function entryLine(entry: UnansweredExchange): string {
  const proxy = entry.answeredByProxy ? `, answered ${entry.answeredByProxy} by watch` : '';
  return `${entry.request}: ${entry.why}${proxy} (${entry.at})`;
}

/** The summary's lines on requests that got no answer: none when every one did. */
export function unansweredText(
  count: number,
  kept: readonly UnansweredExchange[],
  reachability: Reachability,
): string[] {
  if (count === 0) return reachability.verdict ? [reachability.verdict] : [];
  return [
    `No answer: ${reachability.verdict}`,
    ...kept.slice(0, LISTED).map((entry) => `  ${entryLine(entry)}`),
    ...(count > LISTED ? [`  ... and ${count - LISTED} more (the JSON report lists up to 100)`] : []),
  ];
}

/**
 * One JUnit testcase, {@link TARGET_ANSWERED}: failed with the unanswered requests when they decide the
 * exit status, passed otherwise (with a note in its output when they were excused).
 */
export function unansweredTestcase(
  classname: string,
  count: number,
  kept: readonly UnansweredExchange[],
  reachability: Reachability,
): string {
  const open = `    <testcase classname="${xmlText(classname)}" name="${TARGET_ANSWERED}" time="0">`;
  if (count === 0) return `${open}</testcase>`;
  const text = [
    reachability.verdict ?? '',
    ...kept.slice(0, LISTED).map(entryLine),
    ...(count > LISTED ? [`... and ${count - LISTED} more`] : []),
  ].join('\n');
  if (reachability.exitCode === 0) return `${open}\n      <system-out>${xmlText(text)}</system-out>\n    </testcase>`;
  return `${open}\n      <failure message="${xmlText(reachability.verdict ?? '')}" type="Unanswered">${xmlText(text)}</failure>\n    </testcase>`;
}
