import { describe, expect, it } from '@jest/globals';
import type { Exchange } from '../core/exchange.js';
import { answerDifferences, answeredAlike, differenceLines } from './answered-alike.js';

const RATE = { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '299', 'x-ratelimit-reset': '1800000000' };

function answer(status: number, json: unknown, headers: Record<string, string> = RATE): Exchange {
  const text = JSON.stringify(json);
  return {
    request: { method: 'POST', url: 'http://127.0.0.1:1/v1/categories', headers: {} },
    status,
    headers: { 'content-type': 'application/json', ...headers },
    text,
    json,
  };
}

const created = { operationId: 'createCategory', content: true };
const error = (code: string, message: string) => ({ code, message, status: 400 });

describe('answerDifferences', () => {
  it('sets aside what the service assigns (an id the request body cannot carry), never what the client sent', () => {
    const plain = answer(201, { id: 4, name: 'ferret' });
    expect(answeredAlike(answer(201, { id: 5, name: 'ferret' }), plain, created)).toBe(true);
    expect(differenceLines(answerDifferences(answer(201, { id: 5, name: 'Ferret' }), plain, created))).toEqual([
      expect.stringMatching(/^content: expected .*ferret.*, received .*Ferret/),
    ]);
  });

  it('compares a read whole: nothing of an answer to a request without a body is assigned', () => {
    const list = { operationId: 'listCategories', content: true };
    expect(answeredAlike(answer(200, [{ id: 1, name: 'dog' }]), answer(200, [{ id: 1, name: 'dog' }]), list)).toBe(
      true,
    );
    expect(answeredAlike(answer(200, [{ id: 2, name: 'dog' }]), answer(200, [{ id: 1, name: 'dog' }]), list)).toBe(
      false,
    );
  });

  it("holds an error to its status and code, never to its message's wording", () => {
    const refused = answer(400, error('invalid_request', 'name is required'));
    expect(answeredAlike(answer(400, error('invalid_request', 'body: name missing')), refused, created)).toBe(true);
    expect(answerDifferences(answer(400, error('payload_too_large', 'too big')), refused, created)).toEqual([
      { what: 'error code', expected: 'invalid_request', received: 'payload_too_large' },
    ]);
    expect(answerDifferences(answer(413, error('payload_too_large', 'x')), refused, created)).toEqual([
      { what: 'status', expected: '400 invalid_request', received: '413 payload_too_large' },
    ]);
  });

  it('holds the media type and each required header the spec documents for the status, not their values', () => {
    const plain = answer(201, { id: 4, name: 'ferret' });
    const fewer = answer(201, { id: 4, name: 'ferret' }, { 'x-ratelimit-limit': '300', 'x-ratelimit-reset': '1' });
    expect(differenceLines(answerDifferences(fewer, plain, created))).toEqual([
      'header X-RateLimit-Remaining: expected present, received absent',
    ]);
    const moved = answer(201, { id: 4, name: 'ferret' }, { ...RATE, 'x-ratelimit-remaining': '12' });
    expect(answeredAlike(moved, plain, created)).toBe(true);
    const text = { ...plain, headers: { ...plain.headers, 'content-type': 'text/plain' } };
    expect(answerDifferences(text, plain, created)).toEqual([
      { what: 'media type', expected: 'application/json', received: 'text/plain' },
    ]);
  });

  it('leaves the content out when two services are compared (a replay: each holds its own records)', () => {
    const replay = { operationId: 'createCategory', content: false };
    expect(answeredAlike(answer(201, { id: 9, name: 'cat' }), answer(201, { id: 4, name: 'ferret' }), replay)).toBe(
      true,
    );
  });
});
