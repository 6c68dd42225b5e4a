import { MAX_DELAY_MS, outcomeOf, type FaultOutcome } from './faults.js';

// Per-request faults for tools that cannot reach the fake's API (docs/explanation/design.md section 5): `Prefer: code=503`,
// `delay=2000`, `network=error`, combinable. Other preferences (`return=minimal`, Prism's `example=`)
// are ignored, as RFC 7240 asks of preferences a server does not support.

/** The fake-only preferences of one request: the faults to apply in order, and what to echo in `Preference-Applied`. */
export type Preferred = { ok: true; outcomes: FaultOutcome[]; applied: string[] } | { ok: false; message: string };

const NONE: Preferred = { ok: true, outcomes: [], applied: [] };

/**
 * Reads the `Prefer` header (repeated headers arrive joined with `, `). A known preference with a bad
 * value is an error to answer with 400, so a typo never passes silently for a working fault.
 * @example preferredFaults('code=503, delay=2000') // delay 2000 ms, then a 503 Error
 */
export function preferredFaults(header: string | null): Preferred {
  if (header === null) return NONE;
  const values = new Map<string, string>();
  for (const token of header.split(',')) {
    const [preference = ''] = token.split(';');
    const [name = '', ...rest] = preference.split('=');
    const key = name.trim().toLowerCase();
    // RFC 7240 section 2: of a preference given twice, the first counts.
    if (!values.has(key))
      values.set(
        key,
        rest
          .join('=')
          .trim()
          .replace(/^"(.*)"$/, '$1'),
      );
  }
  const code = values.get('code');
  const delay = values.get('delay');
  const network = values.get('network');
  const outcomes: FaultOutcome[] = [];
  const applied: string[] = [];
  if (delay !== undefined) {
    if (!/^\d{1,6}$/.test(delay) || Number(delay) > MAX_DELAY_MS)
      return refuse(`delay=${delay}`, `milliseconds from 0 to ${MAX_DELAY_MS}`);
    outcomes.push({ delayMs: Number(delay) });
    applied.push(`delay=${delay}`);
  }
  if (network !== undefined && network !== 'error') return refuse(`network=${network}`, '"error"');
  if (code !== undefined && !/^[1-5]\d\d$/.test(code)) return refuse(`code=${code}`, 'an HTTP status from 100 to 599');
  if (network !== undefined && code !== undefined && Number(code) >= 400)
    return { ok: false, message: 'Prefer: code= and network=error exclude each other; send one.' };
  if (network !== undefined) {
    outcomes.push({ network: 'error' });
    applied.push('network=error');
  } else if (code !== undefined && Number(code) >= 400) {
    // A success or redirect code asks for the ordinary answer, which the fake gives anyway (Prism's meaning).
    outcomes.push(
      outcomeOf(
        'Prefer',
        { status: Number(code), message: `Injected by the request's Prefer: code=${code} (fake-only test control).` },
        Math.random,
      ),
    );
    applied.push(`code=${code}`);
  }
  return { ok: true, outcomes, applied };
}

function refuse(preference: string, expected: string): Preferred {
  return {
    ok: false,
    message: `Prefer: ${preference} is not understood; the fake expects ${expected} (fake-only test control).`,
  };
}
