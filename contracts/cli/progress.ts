import type { CliIo } from './cli-common.js';

/** Seconds between the plain lines a long wait prints where the output is not a terminal (a CI log). */
export const PLAIN_WAIT_LINE_EVERY = 15;

/**
 * Where a countdown goes: a terminal line rewritten in place, or nothing (then plain lines). The bins'
 * io writes to this process's standard output; a terminal there gets the line that updates.
 */
function inPlaceWriter(io: CliIo): ((text: string) => void) | undefined {
  if (io.status) return io.status;
  // The bin's io (the process's own environment) on a terminal; tests hand their own io and env.
  if (io.env !== process.env || !process.stdout.isTTY) return undefined;
  return (text) => void process.stdout.write(`\r\u001b[2K${text}`);
}

/**
 * How a real wait is shown while it lasts: on a terminal, one line counting the seconds down in place
 * (erased when the wait ends); elsewhere, a plain line every {@link PLAIN_WAIT_LINE_EVERY} seconds, so a
 * CI log shows the run is alive. The note before the wait already said how long and why.
 * @example settings.onWait = waitCountdown(io);
 */
export function waitCountdown(io: CliIo, every = PLAIN_WAIT_LINE_EVERY): (seconds: number, why: string) => () => void {
  const inPlace = inPlaceWriter(io);
  return (seconds, why) => {
    const endsAt = Date.now() + seconds * 1000;
    const left = () => Math.max(0, Math.ceil((endsAt - Date.now()) / 1000));
    const show = inPlace
      ? () => inPlace(`      waiting: ${left()} s left of ${seconds} s: ${why}`)
      : () => io.out(`      still waiting: ${left()} s left of ${seconds} s: ${why}`);
    if (inPlace) show();
    const timer = setInterval(show, (inPlace ? 1 : every) * 1000);
    timer.unref();
    return () => {
      clearInterval(timer);
      inPlace?.('');
    };
  };
}

/**
 * Where a run stands, as the suffix of each check's line: checks done of the total and, once the cost
 * is estimated, requests sent of the estimate.
 * @example const progress = new RunProgress(51); progress.done('create_category_conforms', 12); // '[1/51 checks, 12 requests]'
 */
export class RunProgress {
  readonly #total: number;
  readonly #done = new Set<string>();
  estimate: number | undefined;

  constructor(total: number) {
    this.#total = total;
  }

  /** The suffix after a check's result: a check reported twice (its repetition failed) counts once. */
  done(check: string, requests: number): string {
    this.#done.add(check);
    const used =
      this.estimate === undefined ? `${requests} requests` : `${requests} of about ${this.estimate} requests`;
    return `[${this.#done.size}/${this.#total} checks, ${used}]`;
  }
}
