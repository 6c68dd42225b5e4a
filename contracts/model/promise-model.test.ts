import { describe, expect, it } from '@jest/globals';
import type { Capability } from '../core/capabilities.js';
import type { Exchange } from '../core/exchange.js';
import type { BrokenPromise } from './broken-promise.js';
import { PromiseModel } from './promise-model.js';
import { PROMISES } from './promise-rules.js';

const BASE = 'http://service.test/v1';
const NOW = 1_800_000_005; // 5 s into a UTC minute
const RESET = 1_800_000_060;
const STATEFUL: Capability[] = ['stateful', 'deprecationHeaders'];

function exchange(
  method: string,
  path: string,
  status: number,
  {
    remaining = 59,
    reset = RESET,
    json,
    body,
    headers = {},
    request = { Authorization: 'Bearer k', ...(body !== undefined && { 'Content-Type': 'application/json' }) },
  }: {
    remaining?: number;
    reset?: number;
    json?: unknown;
    body?: string;
    headers?: Record<string, string>;
    request?: Record<string, string>;
  } = {},
): Exchange {
  return {
    request: { method, url: `${BASE}${path}`, headers: request, ...(body !== undefined && { body }) },
    status,
    headers: {
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(reset),
      ...headers,
    },
    text: JSON.stringify(json ?? null),
    json,
  };
}

const rateLimited = (remaining = 0) =>
  exchange('GET', '/categories', 429, {
    remaining,
    json: { code: 'rate_limit_exceeded', message: 'm', status: 429 },
    headers: { 'retry-after': '55' },
  });

/** The promises broken; the rules under the spec, judged on the same exchanges, have their own tests (rules/). */
const promisesOf = (broken: BrokenPromise[]) => broken.map(({ promise }) => promise).filter((name) => name in PROMISES);

/** Feeds answers one at a time (each answered before the next is sent) and returns the promises broken. */
function oneByOne(model: PromiseModel, answers: Exchange[]): string[] {
  return answers.flatMap((answer) => promisesOf(model.answered(model.sending(), answer, NOW)));
}

/** Feeds answers as one burst: all sent before any is answered. */
function together(model: PromiseModel, answers: Exchange[]): string[] {
  const tickets = answers.map(() => model.sending());
  return answers.flatMap((answer, index) => promisesOf(model.answered(tickets[index]!, answer, NOW)));
}

const model = (capabilities: Capability[] = STATEFUL) =>
  new PromiseModel({ baseUrl: BASE, capabilities, plan: { perMinute: 60, perDay: 1000 } });

const DAY_RESET = Math.ceil(NOW / 86_400) * 86_400;
/** An answer describing the day window (the plan's 1,000 a day). */
const dayAnswer = (status: number, remaining: number) =>
  exchange('GET', '/categories', status, {
    remaining,
    reset: DAY_RESET,
    json: status === 429 ? { code: 'rate_limit_exceeded', message: 'm', status } : [],
    headers: { 'x-ratelimit-limit': '1000', ...(status === 429 && { 'retry-after': String(DAY_RESET - NOW) }) },
  });

describe('the model keeps both quota windows at once', () => {
  it('finds nothing wrong in a day counted down below the minute, then refused', () => {
    expect(oneByOne(model(), [dayAnswer(200, 2), dayAnswer(200, 1), dayAnswer(200, 0), dayAnswer(429, 0)])).toEqual([]);
  });

  it('finds an admission in the next minute while the day was used up', () => {
    const judged = model();
    expect(oneByOne(judged, [dayAnswer(200, 0), dayAnswer(429, 0)])).toEqual([]);
    const nextMinute = exchange('GET', '/categories', 200, { remaining: 59, reset: RESET + 60, json: [] });
    const broken = judged.answered(judged.sending(), nextMinute, NOW + 60).map(({ promise }) => promise);
    expect(broken).toContain('no_admission_past_the_limit');
  });

  it("finds a 429 of the day window, sent away to the day's end, while only the minute was used up", () => {
    // The minute described at 1, then 0: the day had more left each time (on a tie the day is described).
    const minute = [1, 0].map((remaining) => exchange('GET', '/categories', 200, { remaining, json: [] }));
    expect(oneByOne(model(), [...minute, dayAnswer(429, 0)])).toEqual(['no_surprise_rate_limit']);
    // The same 429 after the minute's own 429 and a day counted down to 0 breaks nothing.
    expect(oneByOne(model(), [dayAnswer(200, 1), dayAnswer(200, 0), dayAnswer(429, 0)])).toEqual([]);
  });

  it('finds headers describing the minute while earlier answers left the day lower', () => {
    const judged = model();
    expect(oneByOne(judged, [dayAnswer(200, 5)])).toEqual([]);
    const minuteDescribed = exchange('GET', '/categories', 200, { remaining: 58, json: [] });
    expect(oneByOne(judged, [minuteDescribed])).toContain('lower_window_described');
  });
});

describe('the model judges each answer in the context it describes (contracts/core/described-bucket.ts)', () => {
  const withLimit = (answer: Exchange, limit: string) => ({
    ...answer,
    headers: { ...answer.headers, 'x-ratelimit-limit': limit },
  });
  const error = (code: string, status: number) => ({ code, message: 'm', status });
  // A live target: the key's plan is read from its answers.
  const live = () => new PromiseModel({ baseUrl: BASE, capabilities: STATEFUL });

  it("reads neither a 401 nor an answer before any operation as the key's window, whatever limit they show", () => {
    // The key's window is 300 a minute; the service keeps 30 for requests without a valid key and dresses
    // its HTTP parser's refusals (a lower-case method) with that limit too.
    const keyed = (remaining: number) => withLimit(exchange('GET', '/categories', 200, { remaining, json: [] }), '300');
    expect(
      oneByOne(live(), [
        keyed(299),
        withLimit(exchange('GET', '/categories', 401, { remaining: 29, request: {} }), '30'),
        withLimit(exchange('get', '/categories', 400, { remaining: 28, json: error('invalid_request', 400) }), '30'),
        withLimit(
          exchange('GET', '/categories', 401, {
            remaining: 0,
            reset: RESET + 86_340,
            request: { Authorization: 'Bearer unknown' },
          }),
          '500',
        ),
        keyed(298),
      ]),
    ).toEqual([]);
  });

  it('still holds the key to its own window around them', () => {
    const keyed = (remaining: number) => withLimit(exchange('GET', '/categories', 200, { remaining, json: [] }), '300');
    expect(
      oneByOne(live(), [
        keyed(299),
        withLimit(exchange('GET', '/categories', 401, { remaining: 29, request: {} }), '30'),
        keyed(299),
      ]),
    ).toEqual(['charged_once_per_admitted_request']);
  });
});

describe("the model of the spec's promises", () => {
  it('holds answers one by one to what the last one announced: one charge each, whatever the status', () => {
    expect(
      oneByOne(model(), [
        exchange('GET', '/categories', 200, { remaining: 59, json: [] }),
        exchange('GET', '/nowhere', 404, { remaining: 58 }),
        exchange('PATCH', '/categories', 405, { remaining: 57 }),
      ]),
    ).toEqual([]);
    expect(
      oneByOne(model(), [
        exchange('GET', '/categories', 200, { remaining: 59, json: [] }),
        exchange('PATCH', '/categories', 405, { remaining: 59 }),
      ]),
    ).toEqual(['charged_once_per_admitted_request']);
  });

  it('reports a 429 while requests were announced, and an admission after 0', () => {
    expect(oneByOne(model(), [exchange('GET', '/categories', 200, { remaining: 5, json: [] }), rateLimited()])).toEqual(
      ['no_surprise_rate_limit'],
    );
    expect(
      oneByOne(model(), [
        exchange('GET', '/categories', 200, { remaining: 0, json: [] }),
        rateLimited(),
        exchange('GET', '/categories', 200, { remaining: 0, json: [] }),
      ]),
    ).toEqual(['no_admission_past_the_limit']);
  });

  it('judges a burst as a set: distinct places, exactly as many admitted as announced', () => {
    const first = exchange('GET', '/categories', 200, { remaining: 2, json: [] });
    const places = (...remaining: number[]) =>
      remaining.map((left) => exchange('GET', '/categories', 200, { remaining: left, json: [] }));
    const fair = model();
    oneByOne(fair, [first]);
    expect(together(fair, [...places(0, 1), rateLimited()])).toEqual([]);
    const doubled = model();
    oneByOne(doubled, [first]);
    expect(together(doubled, places(1, 1))).toEqual(['one_place_per_answer']);
    const overAdmitted = model();
    oneByOne(overAdmitted, [first]);
    expect(together(overAdmitted, places(1, 0, 0))).toEqual(['no_admission_past_the_limit']);
  });

  it("wants fixed UTC windows: Reset at the end of a minute or a day, the plan's limit", () => {
    expect(oneByOne(model(), [exchange('GET', '/categories', 200, { reset: RESET - 1, json: [] })])).toEqual([
      'fixed_utc_windows',
    ]);
    expect(oneByOne(model(), [exchange('GET', '/categories', 200, { reset: RESET + 60, json: [] })])).toEqual([
      'fixed_utc_windows',
    ]);
  });

  it('keeps records: ids unique, listed as created and in ascending id order', () => {
    const body = '{"name":"a"}';
    const created = exchange('POST', '/categories', 201, { remaining: 59, body, json: { id: 4, name: 'a' } });
    const again = exchange('POST', '/categories', 201, { remaining: 58, body, json: { id: 4, name: 'a' } });
    expect(oneByOne(model(), [created, again])).toEqual(['ids_unique']);
    // No operation of the spec deletes a category: an id a list answered is never free again.
    const listed = exchange('GET', '/categories', 200, { remaining: 59, json: [{ id: 1, name: 'dog' }] });
    const takesListedId = exchange('POST', '/categories', 201, { remaining: 58, body, json: { id: 1, name: 'a' } });
    expect(oneByOne(model(), [listed, takesListedId])).toEqual(['ids_unique']);
    expect(
      oneByOne(model(), [
        exchange('POST', '/categories', 201, { remaining: 59, body, json: { id: 4, name: 'a', description: '' } }),
      ]),
    ).toEqual(['stored_as_sent']);
    expect(
      oneByOne(model(), [
        created,
        exchange('GET', '/categories', 200, { remaining: 58, json: [{ id: 1, name: 'dog' }] }),
      ]),
    ).toEqual(['stored_as_sent']);
    expect(
      oneByOne(model([]), [
        exchange('GET', '/categories', 200, {
          json: [
            { id: 2, name: 'b' },
            { id: 1, name: 'a' },
          ],
        }),
      ]),
    ).toEqual(['listed_in_ascending_id_order']);
  });

  it('allows a deprecation only where the spec declares one, and the declared one there', () => {
    expect(
      oneByOne(model([]), [
        exchange('GET', '/store/orders', 200, { json: [], headers: { deprecation: '@1782864000' } }),
      ]),
    ).toEqual(['deprecation_only_where_declared']);
    expect(
      oneByOne(model(), [exchange('GET', '/pets/1', 404, { json: { code: 'not_found', message: 'm', status: 404 } })]),
    ).toEqual(['deprecation_headers_as_declared']);
  });

  it('judges nothing a target cannot support: Prism keeps no state', () => {
    expect(
      oneByOne(model([]), [
        exchange('GET', '/categories', 200, { remaining: 59, json: [] }),
        exchange('GET', '/categories', 200, { remaining: 59, json: [] }),
      ]),
    ).toEqual([]);
  });
  it('holds every answer to the order of evaluation, read from the request alone', () => {
    const error = (status: number, code: string) => ({ code, message: 'm', status });
    const uniform = (capabilities: Capability[] = [...STATEFUL, 'uniformErrors', 'realAuth']) => model(capabilities);
    const asJson = { 'content-type': 'application/json' };
    const post = (
      status: number,
      body: string,
      request: Record<string, string>,
      json: unknown = { id: 9, name: 'a' },
    ) => exchange('POST', '/categories', status, { body, request, json, headers: asJson });
    const key = { Authorization: 'Bearer k' };
    // Admitted though refused: on any target.
    expect(oneByOne(model([]), [post(201, '{"name":"a"}', { ...key, 'Content-Type': 'text/plain' })])).toEqual([
      'refused_never_admitted',
    ]);
    expect(
      oneByOne(model([]), [post(201, '{"name":"a","x":1}', { ...key, 'Content-Type': 'application/json' })]),
    ).toEqual(['refused_never_admitted']);
    expect(oneByOne(model([]), [exchange('GET', '/Categories', 200, { json: [] })])).toEqual([
      'refused_never_admitted',
    ]);
    expect(oneByOne(model([]), [exchange('GET', '/categories', 200, { json: [], request: {} })])).toEqual([]);
    // The HTTP layer may read a method in another letter case as its upper-case spelling (gunicorn does):
    // `get` on a path with GET may be that GET; `post` on a path without POST may not.
    expect(oneByOne(uniform(), [exchange('get', '/categories', 200, { json: [] })])).toEqual([]);
    expect(oneByOne(uniform(), [exchange('post', '/store/orders', 201, { json: [] })])).toEqual([
      'refused_never_admitted',
    ]);
    expect(oneByOne(uniform(), [exchange('GET', '/categories', 200, { json: [], request: {} })])).toEqual([
      'refused_never_admitted',
    ]);
    // The earliest stage's status, where errors are uniform.
    expect(
      oneByOne(uniform(), [
        exchange('GET', '/nowhere', 404, { json: error(404, 'not_found'), request: {}, headers: asJson }),
      ]),
    ).toEqual(['earliest_refusal_answered']);
    // Validation has no order in the spec: a body that is not JSON-typed and breaks the schema may get
    // the 415 or the 400; a JSON-typed valid body may get neither.
    for (const [status, code] of [
      [400, 'invalid_request'],
      [415, 'unsupported_media_type'],
    ] as const)
      expect(
        oneByOne(uniform(), [
          post(status, '{"name":""}', { ...key, 'Content-Type': 'text/plain' }, error(status, code)),
        ]),
      ).toEqual([]);
    expect(
      oneByOne(uniform(), [
        post(400, '{"name":"a"}', { ...key, 'Content-Type': 'text/plain' }, error(400, 'invalid_request')),
      ]),
    ).toEqual(['earliest_refusal_answered']);
    expect(
      oneByOne(uniform(), [
        post(
          415,
          '{"name":"a"}',
          { ...key, 'Content-Type': 'Application/JSON; charset=UTF-8' },
          error(415, 'unsupported_media_type'),
        ),
      ]),
    ).toEqual(['earliest_refusal_answered']);
    expect(
      oneByOne(uniform(), [
        post(
          413,
          `{"name":"a"}${' '.repeat(17_000)}`,
          { ...key, 'Content-Type': 'application/json' },
          error(413, 'payload_too_large'),
        ),
      ]),
    ).toEqual([]);
    expect(
      oneByOne(uniform(), [
        post(201, `{"name":"a"}${' '.repeat(17_000)}`, { ...key, 'Content-Type': 'application/json' }),
      ]),
    ).toEqual(['refused_never_admitted']);
    // A 401 to a key is the service's to say; a 429 comes before everything.
    expect(
      oneByOne(uniform(), [exchange('GET', '/nowhere', 401, { json: error(401, 'invalid_api_key'), headers: asJson })]),
    ).toEqual([]);
    expect(
      oneByOne(uniform(), [
        exchange('GET', '/nowhere', 429, {
          remaining: 0,
          json: error(429, 'rate_limit_exceeded'),
          request: {},
          headers: { ...asJson, 'retry-after': '55' },
        }),
      ]),
    ).toEqual([]);
  });

  it("holds every error answer, on any path, to the spec's Error", () => {
    const uniform = model([...STATEFUL, 'uniformErrors']);
    expect(
      oneByOne(uniform, [
        exchange('GET', '/nowhere', 404, {
          json: { code: 'not_found', message: 'm', status: 404 },
          headers: { 'content-type': 'application/json' },
        }),
      ]),
    ).toEqual([]);
    expect(
      oneByOne(model([...STATEFUL, 'uniformErrors']), [
        exchange('GET', '/nowhere', 404, {
          json: { code: 'not_found', message: 'm', status: 400 },
          headers: { 'content-type': 'application/json' },
        }),
      ]),
    ).toEqual(['errors_are_error_bodies']);
    expect(
      oneByOne(model([...STATEFUL, 'uniformErrors']), [
        exchange('GET', '/nowhere', 404, { headers: { 'content-type': 'text/html' } }),
      ]),
    ).toEqual(['errors_are_error_bodies']);
    expect(
      oneByOne(model([...STATEFUL, 'uniformErrors']), [
        exchange('PATCH', '/categories', 405, {
          json: { code: 'method_not_allowed', message: 'm', status: 405 },
          headers: { 'content-type': 'application/json', allow: 'GET' },
        }),
      ]),
    ).toEqual(['errors_are_error_bodies']);
    expect(
      oneByOne(model([...STATEFUL, 'uniformErrors']), [
        exchange('PATCH', '/categories', 405, {
          json: { code: 'method_not_allowed', message: 'm', status: 405 },
          headers: { 'content-type': 'application/json', allow: 'GET, POST, HEAD' },
        }),
      ]),
    ).toEqual([]);
    expect(
      oneByOne(model(STATEFUL), [exchange('GET', '/nowhere', 404, { headers: { 'content-type': 'text/html' } })]),
    ).toEqual([]);
  });
});
