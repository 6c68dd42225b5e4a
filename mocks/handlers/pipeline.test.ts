import { describe, expect, it } from '@jest/globals';
import { ERROR_STATUS } from '../domain/errors.js';
import { createFake } from '../fake.js';
import type { ApiCall } from './api-call.js';
import { override } from './typed-override.js';

// The pipeline's own stages, seen through `fake.answer` (what every host calls).
function callOf(method: string, path: string, headers: Record<string, string> = {}, body = ''): ApiCall {
  const lowered = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return {
    method,
    path,
    query: '',
    header: (name) => lowered.get(name.toLowerCase()) ?? null,
    body: async () => new TextEncoder().encode(body),
    clientAddress: 'local',
  };
}
const free = { authorization: 'Bearer free-test-key' };

describe('the request pipeline', () => {
  it('answers a preflight first: 204, no key needed, nothing charged, nothing routed', async () => {
    const fake = createFake();
    const answer = await fake.answer(callOf('OPTIONS', '/nowhere', { 'access-control-request-method': 'POST' }));
    expect(answer.status).toBe(204);
    expect(answer.headers['Access-Control-Allow-Headers']).toBe('Authorization, Content-Type, Prefer');
    expect((await fake.keys.state('free-test-key')).minute.remaining).toBe(60);
  });

  it('lets a beforeAuth override of every request answer a preflight (next is the preflight answer); others never see it', async () => {
    const seen: string[] = [];
    const fake = createFake({
      overrides: [
        override.all(
          async ({ request, next }) => {
            seen.push(request.method);
            return { ...(await next()), status: 401 };
          },
          { beforeAuth: true },
        ),
        override.all(({ next }) => next()),
      ],
    });
    const answer = await fake.answer(callOf('OPTIONS', '/categories', { 'access-control-request-method': 'POST' }));
    expect(answer).toMatchObject({ status: 401, headers: { 'Access-Control-Allow-Methods': 'GET, POST, OPTIONS' } });
    expect(seen).toEqual(['OPTIONS']);
  });

  it('routes TRACE (which only the standalone server receives) like any method: the key first, then 405 (design section 7)', async () => {
    const fake = createFake();
    const anonymous = await fake.answer(callOf('TRACE', '/categories'));
    expect(anonymous).toMatchObject({ status: 401 });
    const answer = await fake.answer(callOf('TRACE', '/categories', free));
    expect(answer).toMatchObject({ status: 405, headers: { Allow: 'GET, POST', 'X-RateLimit-Remaining': '59' } });
    expect(answer.body).toMatchObject({ code: 'method_not_allowed', status: 405 });
  });

  it('puts CORS headers on every answer to a request with an Origin, denials included, and on no other', async () => {
    const fake = createFake();
    const origin = { origin: 'http://localhost:5173' };
    for (const headers of [origin, { ...origin, ...free }]) {
      for (const path of ['/categories', '/x']) {
        const answer = await fake.answer(callOf('GET', path, headers));
        expect(answer.headers).toMatchObject({ 'Access-Control-Allow-Origin': '*' });
        expect(answer.headers['Access-Control-Expose-Headers']).toContain('X-RateLimit-Remaining');
        expect((await fake.answer(callOf('GET', path, { ...headers, origin: '' }))).headers).toHaveProperty(
          'Access-Control-Allow-Origin',
        );
      }
      expect((await fake.answer(callOf('GET', '/categories', free))).headers).not.toHaveProperty(
        'Access-Control-Allow-Origin',
      );
    }
  });

  it('answers its own failure 500 internal_error from the catalogue, tells onDefect, and journals it', async () => {
    const defects: string[] = [];
    const fake = createFake({
      overrides: [
        override.get('/store/orders', () => {
          throw new Error('a defect');
        }),
      ],
      onDefect: (call, error) => defects.push(`${call.path}: ${(error as Error).message}`),
    });
    const answer = await fake.answer(callOf('GET', '/store/orders', free));
    expect(answer.status).toBe(ERROR_STATUS.internal_error);
    expect(answer.body).toEqual({
      code: 'internal_error',
      message: 'The fake failed to answer; see its log.',
      status: 500,
    });
    expect(defects).toEqual(['/store/orders: a defect']);
    expect(fake.requests.last('listOrders')?.status).toBe(500);
  });

  it('takes an injected fault code from the catalogue by status', async () => {
    const fake = createFake({ faults: [{ id: 'gw', effect: { status: 504 } }] });
    expect((await fake.answer(callOf('GET', '/categories', free))).body).toEqual({
      code: 'gateway_timeout',
      message: 'Injected by the fake\'s fault rule "gw" (status 504).',
      status: ERROR_STATUS.gateway_timeout,
    });
  });
});
