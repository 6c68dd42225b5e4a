import { describe, expect, it } from '@jest/globals';
import type { Exchange } from './exchange.js';
import { answeredBeforeAnyOperation, bucketDescribed, refusedByParser } from './described-bucket.js';
import { PromiseModel } from '../model/promise-model.js';
import { PROMISES } from '../model/promise-rules.js';

const BASE = 'http://service.test/v1';
const NOW = 1_800_000_005;
const KEYED = { Authorization: 'Bearer k', 'Content-Type': 'application/json' };
const RATE_LIMIT = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '58', 'x-ratelimit-reset': '1800000060' };

/** A POST of a category in chunks (no Content-Length), as a check of the framing sends it, and its answer. */
function chunkedCreate(status: number, headers: Record<string, string>, text: string): Exchange {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    request: {
      method: 'POST',
      url: `${BASE}/categories`,
      headers: { ...KEYED, 'Transfer-Encoding': 'chunked' },
      body: '{"name":"Dog"}',
      wire: { chunked: true },
    },
    status,
    headers,
    text,
    json,
  };
}

/** nginx's own page for a body it will not read without Content-Length: no X-RateLimit-*, not an Error. */
const bare411 = chunkedCreate(
  411,
  { 'content-type': 'text/html', server: 'nginx' },
  '<html><head><title>411 Length Required</title></head></html>',
);

/** The spec's promises the answers break, fed one by one (the rules under the spec have their own tests). */
const promisesOf = (model: PromiseModel, answers: Exchange[]) =>
  answers
    .flatMap((answer) => model.answered(model.sending(), answer, NOW))
    .map(({ promise }) => promise)
    .filter((name) => name in PROMISES);

const stateful = () =>
  new PromiseModel({
    baseUrl: BASE,
    capabilities: ['stateful', 'uniformErrors'],
    plan: { perMinute: 60, perDay: 1000 },
  });

describe('the HTTP layer\'s own answer (spec: it "may answer on its own, in its own format and without X-RateLimit-*")', () => {
  it('reads a bare refusal of a request form as the parser’s, whatever the method and fields of the request', () => {
    expect([answeredBeforeAnyOperation(bare411), refusedByParser(bare411)]).toEqual([true, true]);
    expect(bucketDescribed(bare411)).toEqual({ kind: 'none' });
  });

  it('holds the parser’s bare refusal to none of a service answer’s promises, and the key’s window to the requests around it', () => {
    const created = (remaining: number): Exchange => ({
      ...chunkedCreate(
        201,
        { ...RATE_LIMIT, 'x-ratelimit-remaining': String(remaining) },
        `{"id":${70 - remaining},"name":"Dog"}`,
      ),
      request: { method: 'POST', url: `${BASE}/categories`, headers: KEYED, body: '{"name":"Dog"}' },
    });
    // The refusal counted in no window: the next create is charged exactly one after the one before.
    expect(promisesOf(stateful(), [created(59), bare411, created(58)])).toEqual([]);
  });

  it('judges an answer with X-RateLimit-*, or an Error body to a plain request, as the service’s, whatever its status', () => {
    const dressed = chunkedCreate(411, { ...RATE_LIMIT, 'content-type': 'text/html' }, '<html>411</html>');
    const errorWithoutFields = chunkedCreate(
      411,
      { 'content-type': 'application/json' },
      '{"code":"length_required","message":"m","status":411}',
    );
    const plainError = {
      ...errorWithoutFields,
      request: { ...errorWithoutFields.request, headers: KEYED, wire: undefined },
    };
    for (const answer of [dressed, plainError]) expect(refusedByParser(answer)).toBe(false);
    expect(promisesOf(stateful(), [dressed])).toContain('errors_are_error_bodies');
  });

  it('reads an Error without X-RateLimit-* to a request in a form of its own as the parser’s, to a plain request as the service’s', () => {
    const refusal = chunkedCreate(
      411,
      { 'content-type': 'application/json' },
      '{"code":"x","message":"m","status":411}',
    );
    const plain = { ...refusal, request: { ...refusal.request, headers: KEYED } };
    delete plain.request.wire;
    expect([refusedByParser(refusal), refusedByParser(plain)]).toEqual([true, false]);
  });

  it('leaves a status the spec does not give the HTTP layer to the service, bare or not', () => {
    const bare404 = { ...bare411, status: 404 };
    expect([answeredBeforeAnyOperation(bare404), refusedByParser(bare404)]).toEqual([false, false]);
  });
});
