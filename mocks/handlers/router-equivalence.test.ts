// The standalone server hands calls to the pipeline itself (Fake.answer) and msw hosts go through the msw
// handler and its fetch objects (Fake.handle); both must give the very same answers, or the fake would
// behave differently per host.
import { describe, expect, it } from '@jest/globals';
import { createFake, type Fake } from '../fake.js';
import type { ApiCall } from './api-call.js';

const BASE_URL = 'http://fake.test/v1';
const ADDRESS = '10.1.2.3';
const FIXED_NOW = Date.UTC(2026, 10, 22, 12, 0, 30);

interface Case {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const free = { authorization: 'Bearer free-test-key' };
const json = { ...free, 'content-type': 'application/json' };
const CASES: Case[] = [
  { method: 'GET', path: '/categories', headers: free },
  { method: 'GET', path: '/CATEGORIES/', headers: free },
  { method: 'POST', path: '/categories', headers: json, body: '{"name":"hamster"}' },
  { method: 'POST', path: '/categories', headers: json, body: '{"name":"ferret","description":"Curious"}' },
  { method: 'GET', path: '/categories', headers: free },
  { method: 'POST', path: '/categories', headers: json, body: '{"name":"   "}' },
  { method: 'POST', path: '/categories', headers: json, body: '{"name":' },
  { method: 'POST', path: '/categories', headers: json, body: '' },
  { method: 'POST', path: '/categories', headers: { ...free, 'content-type': 'text/plain' }, body: '{"name":"x"}' },
  { method: 'GET', path: '/pets/1', headers: free },
  { method: 'GET', path: '/pets/999', headers: free },
  { method: 'GET', path: '/pets/abc', headers: free },
  { method: 'GET', path: '/pets/%ZZ', headers: free },
  { method: 'GET', path: '/pets/99999999999999999999', headers: free },
  { method: 'DELETE', path: '/pets/1', headers: free },
  { method: 'PUT', path: '/categories', headers: free },
  { method: 'HEAD', path: '/categories', headers: free },
  { method: 'GET', path: '/store/orders', headers: free },
  { method: 'GET', path: '/nowhere', headers: free },
  { method: 'GET', path: '', headers: free },
  { method: 'GET', path: '/categories' },
  { method: 'GET', path: '/categories', headers: { authorization: 'Bearer not-a-key' } },
  { method: 'GET', path: '/categories', headers: { authorization: 'Basic Zm9vOmJhcg==' } },
  { method: 'GET', path: '/categories', headers: { authorization: 'Bearer wrong' } },
];

function fixedFake(): Fake {
  return createFake({ baseUrl: BASE_URL, clock: { now: () => FIXED_NOW } });
}

async function viaMsw(fake: Fake, c: Case) {
  const request = new Request(`${BASE_URL}${c.path}`, {
    method: c.method,
    headers: c.headers ?? {},
    ...(c.body !== undefined && { body: c.body }),
  });
  const response = await fake.handle(request, ADDRESS);
  if (!response) throw new Error(`msw handlers did not answer ${c.method} ${c.path}`);
  const headers = Object.fromEntries(
    [...response.headers].filter(([name]) => name !== 'content-type' && name !== 'content-length'),
  );
  const text = await response.text();
  return {
    status: response.status,
    headers,
    body: c.method === 'HEAD' || text === '' ? undefined : (JSON.parse(text) as unknown),
  };
}

async function viaRouter(fake: Fake, c: Case) {
  const headers = new Headers(c.headers ?? {});
  const call: ApiCall = {
    method: c.method,
    path: new URL(`${BASE_URL}${c.path}`).pathname.slice('/v1'.length),
    query: '',
    header: (name) => headers.get(name),
    body: async () => new TextEncoder().encode(c.body ?? ''),
    clientAddress: ADDRESS,
  };
  const answer = await fake.answer(call);
  return {
    status: answer.status,
    headers: Object.fromEntries(Object.entries(answer.headers).map(([name, value]) => [name.toLowerCase(), value])),
    body: c.method === 'HEAD' ? undefined : (JSON.parse(JSON.stringify(answer.body)) as unknown),
  };
}

describe("Fake.answer (the standalone server's way in) and Fake.handle (the msw handler)", () => {
  it('give the same status, headers and body for every operation, error and unknown route, in sequence', async () => {
    const [mswFake, routedFake] = [fixedFake(), fixedFake()];
    for (const c of CASES) {
      const [fromMsw, fromRouter] = [await viaMsw(mswFake, c), await viaRouter(routedFake, c)];
      expect({ case: `${c.method} ${c.path}`, ...fromRouter }).toEqual({ case: `${c.method} ${c.path}`, ...fromMsw });
    }
  });

  it('agree through the quota running out: the same 429s, Retry-After and remaining counts', async () => {
    const [mswFake, routedFake] = [fixedFake(), fixedFake()];
    const list = { method: 'GET', path: '/categories', headers: free };
    const statuses: number[] = [];
    for (let i = 0; i < 62; i += 1) {
      const [fromMsw, fromRouter] = [await viaMsw(mswFake, list), await viaRouter(routedFake, list)];
      expect(fromRouter).toEqual(fromMsw);
      statuses.push(fromRouter.status);
    }
    expect(statuses.filter((status) => status === 429)).toHaveLength(2);
  });
});
