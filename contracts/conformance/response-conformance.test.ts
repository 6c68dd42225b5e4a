import { describe, expect, it } from '@jest/globals';
import type { Exchange } from '../core/exchange.js';
import { responseViolations } from './response-conformance.js';

const RATE_LIMIT = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '1795000020' };

function exchange(status: number, headers: Record<string, string>, json: unknown): Exchange {
  const text = JSON.stringify(json);
  return {
    request: { method: 'GET', url: 'http://127.0.0.1:1/v1/categories', headers: {} },
    status,
    headers,
    text,
    json,
  };
}

describe('responseViolations', () => {
  it('finds nothing wrong with a conforming list', () => {
    const list = exchange(200, { 'content-type': 'application/json; charset=utf-8', ...RATE_LIMIT }, [
      { id: 1, name: 'dog' },
    ]);
    expect(responseViolations('listCategories', list)).toEqual([]);
  });

  it('reports an undocumented status with the documented ones', () => {
    const [violation] = responseViolations('listCategories', exchange(503, { 'content-type': 'application/json' }, {}));
    expect(violation).toEqual({
      kind: 'undocumented_status',
      title: 'Undocumented HTTP status code',
      lines: ['Received: 503 / Documented: 200, 401, 429, 500'],
    });
  });

  it('reports a wrong Content-Type, and an undocumented field as schema drift', () => {
    expect(
      responseViolations('listCategories', exchange(200, { 'content-type': 'text/plain', ...RATE_LIMIT }, []))[0]?.kind,
    ).toBe('undocumented_content_type');
    const drift = responseViolations(
      'listCategories',
      exchange(200, { 'content-type': 'application/json', ...RATE_LIMIT }, [{ id: 1, name: 'dog', legs: 4 }]),
    );
    expect(drift[0]?.lines).toContain('/0 must NOT have additional properties (legs)');
  });

  it('requires documented headers and judges integer headers as digits', () => {
    const { 'x-ratelimit-remaining': _dropped, ...twoHeaders } = RATE_LIMIT;
    const missing = responseViolations(
      'listCategories',
      exchange(200, { 'content-type': 'application/json', ...twoHeaders }, []),
    );
    expect(missing.map((violation) => violation.title)).toEqual(['Missing header X-RateLimit-Remaining']);
    const fraction = responseViolations(
      'listCategories',
      exchange(200, { 'content-type': 'application/json', ...RATE_LIMIT, 'x-ratelimit-limit': '60.5' }, []),
    );
    expect(fraction.map((violation) => violation.title)).toEqual(['Invalid header X-RateLimit-Limit']);
  });

  it('leaves headers owned by another check alone when told to', () => {
    const pet = exchange(
      200,
      { 'content-type': 'application/json', ...RATE_LIMIT, deprecation: 'true' },
      { id: 1, name: 'Rex' },
    );
    expect(responseViolations('getPetById', pet).map((violation) => violation.title)).toEqual([
      'Invalid header Deprecation',
      'Missing header Sunset',
      'Missing header Link',
    ]);
    expect(responseViolations('getPetById', pet, { ignoreHeaders: ['Deprecation', 'Sunset', 'Link'] })).toEqual([]);
  });
});
