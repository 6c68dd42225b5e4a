import { isJsonMediaType, parsedJson } from '../core/exchange.js';
import { TargetNotThisApiError, TargetUnreachableError } from './target-errors.js';

const PROBE_TIMEOUT_MS = 10_000;

/** One answer of a probe, as much as a diagnosis reads. */
interface ProbeAnswer {
  status: number;
  headers: Headers;
  text: string;
}

async function probeOnce(
  url: string,
  extraHeaders: ReadonlyArray<readonly [string, string]>,
  authorization?: string,
): Promise<ProbeAnswer> {
  try {
    const response = await fetch(url, {
      // A login page or a portal answers with a redirect: it is seen, never followed.
      redirect: 'manual',
      headers: [
        ['Accept', 'application/json'],
        ...extraHeaders,
        ...(authorization ? [['Authorization', authorization] as const] : []),
      ] as Array<[string, string]>,
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new TargetUnreachableError(
      `target ${url.replace(/\/categories$/, '')} is unreachable (${why}); check the URL and your network`,
    );
  }
}

const snippet = (text: string) => JSON.stringify(text.replace(/\s+/g, ' ').trim().slice(0, 120));

function errorBodyOf(answer: ProbeAnswer): { code?: unknown; message?: unknown } | undefined {
  const value = parsedJson(answer.text);
  return typeof value === 'object' && value !== null ? (value as { code?: unknown; message?: unknown }) : undefined;
}

/** Why an answer cannot be the Pet Store API's, or undefined when it can be. */
function notThisApi(answer: ProbeAnswer, what: string): string | undefined {
  const type = answer.headers.get('content-type') ?? '(none)';
  if (answer.status >= 300 && answer.status < 400)
    return `${what} was answered ${answer.status}, a redirect to ${answer.headers.get('location') ?? '(no Location)'} (a login page or portal?)`;
  if (/html/i.test(type) || /^\s*<(!doctype|html)/i.test(answer.text))
    return `${what} was answered ${answer.status} ${type}: an HTML page, ${snippet(answer.text)}`;
  if (answer.text !== '' && !isJsonMediaType(type))
    return `${what} was answered ${answer.status} ${type}, not JSON: ${snippet(answer.text)}`;
  if (answer.text !== '' && errorBodyOf(answer) === undefined && !answer.text.trim().startsWith('['))
    return `${what} was answered ${answer.status} with a body that is not JSON: ${snippet(answer.text)}`;
  return undefined;
}

/**
 * What the suite is talking to, from two requests before any check: `GET /categories` without a key
 * (it costs the key nothing) and with it (one request of the key's window). Resolves with one line
 * saying what answered; throws {@link TargetNotThisApiError} (exit 2, before any waiting) when it is not
 * this API (its answer without a key is an HTML page, a redirect or not JSON; neither answer has
 * `X-RateLimit-*`) or the key is refused. `extraHeaders` (`--header`) go on both, as on every request.
 * @example await diagnoseTarget('https://staging.api.petstore.example.com/v1', key) // 'target ...: the Pet Store API ...'
 */
export async function diagnoseTarget(
  baseUrl: string,
  apiKey: string,
  extraHeaders: ReadonlyArray<readonly [string, string]> = [],
): Promise<string> {
  const url = `${baseUrl}/categories`;
  const anonymous = await probeOnce(url, extraHeaders);
  const keyed = await probeOnce(url, extraHeaders, `Bearer ${apiKey}`);
  const stop = (why: string) => {
    throw new TargetNotThisApiError(
      `target ${baseUrl} is not the Pet Store API: ${why}. Check --target; nothing else was sent`,
    );
  };
  // What the API is shows without a key (its 401); a wrong answer with the key is a finding of the checks.
  const wrong = notThisApi(anonymous, 'GET /categories without a key');
  if (wrong) stop(wrong);
  if (!anonymous.headers.has('x-ratelimit-limit') && !keyed.headers.has('x-ratelimit-limit'))
    stop(
      `neither GET /categories without the key (${anonymous.status}) nor with it (${keyed.status}) carries X-RateLimit-*, which the spec puts on every answer`,
    );
  const body = errorBodyOf(keyed);
  if (keyed.status === 401 || (keyed.status === 429 && body?.code === 'temporarily_banned')) {
    const told = `${keyed.status} ${String(body?.code ?? '')}: ${String(body?.message ?? snippet(keyed.text))}`;
    throw new TargetNotThisApiError(
      keyed.status === 401
        ? `target ${baseUrl} refused the key: GET /categories with it was answered ${told}. Check --api-key or PETSTORE_API_KEY; nothing else was sent`
        : `the key is banned on ${baseUrl}: GET /categories was answered ${told} (Retry-After: ${keyed.headers.get('retry-after') ?? 'none'}). Run again once the ban has ended`,
    );
  }
  const limit = keyed.headers.get('x-ratelimit-limit');
  return `target ${baseUrl}: the Pet Store API (GET /categories without the key: ${anonymous.status}; with it: ${keyed.status}${limit ? `, X-RateLimit-Limit ${limit}` : ''})`;
}
