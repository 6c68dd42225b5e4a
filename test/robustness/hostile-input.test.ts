// Hostile input through the handlers, one named case each: every answer is a clear 4xx Error that
// conforms to the spec (or the documented success), and nothing is stored on the way.
import { describe, expect, it } from '@jest/globals';
import { conforming } from '../support/spec-conformance.js';
import { inProcessFake, send } from './in-process-fake.js';

const fake = inProcessFake();
const post = (body: BodyInit, contentType = 'application/json') =>
  send(fake, '/categories', { method: 'POST', headers: { 'content-type': contentType }, body });
const bytes = (...values: number[]) => new Uint8Array(values);
const categoryCount = async () =>
  ((await conforming('listCategories', await send(fake, '/categories'))).json as unknown[]).length;

async function expectRefused(response: Response, status: number, message: RegExp): Promise<void> {
  const exchange = await conforming('createCategory', response);
  expect(exchange.status).toBe(status);
  expect(exchange.json).toMatchObject({ status, message: expect.stringMatching(message) });
}

describe('request bodies', () => {
  it.each([
    ['a lone continuation byte', bytes(0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0x80, 0x22, 0x7d)],
    [
      'an overlong encoding of "/"',
      bytes(0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d),
    ],
    ['an encoded UTF-16 surrogate', bytes(0x22, 0xed, 0xa0, 0x80, 0x22)],
    ['a truncated 4-byte sequence', bytes(0x22, 0xf0, 0x9f, 0x98, 0x22)],
    ['Latin-1 text', bytes(...new TextEncoder().encode('{"name":"caf'), 0xe9, 0x22, 0x7d)],
  ])('refuses invalid UTF-8 (%s) with 400', async (_name, body) => {
    await expectRefused(await post(body), 400, /not valid UTF-8/);
  });

  it('refuses JSON nested 8,000 deep (inside the 16 KiB limit) with 400, without a stack overflow', async () => {
    await expectRefused(await post(`${'['.repeat(8_000)}${']'.repeat(8_000)}`), 400, /^body: /);
    await expectRefused(await post(`{"name":${'{"a":'.repeat(2_500)}1${'}'.repeat(2_500)}}`), 400, /name/);
  });

  it('refuses JSON nested 100,000 deep as too large, before parsing it', async () => {
    await expectRefused(await post(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), 413, /over the limit/);
  });

  it.each([
    ['{"name":"dog"} trailing', /not valid JSON/],
    ['{"name":"dog"}{"name":"cat"}', /not valid JSON/],
    ['{"name":"dog"}\u0000', /not valid JSON/],
    ['{"name":"dog",}', /not valid JSON/],
    ["{'name':'dog'}", /not valid JSON/],
    ['{"name":"dog"', /not valid JSON/],
  ])('refuses %j: trailing garbage or almost-JSON is 400', async (body, message) => {
    await expectRefused(await post(body), 400, message);
  });

  it.each([
    ['an empty body', '', /a JSON body is required/],
    ['only whitespace', ' \r\n\t ', /not valid JSON/],
    ['null', 'null', /^body: /],
    ['an array', '[{"name":"dog"}]', /^body: /],
    ['a string', '"dog"', /^body: /],
  ])('refuses %s with 400', async (_name, body, message) => {
    await expectRefused(await post(body), 400, message);
  });

  it.each([
    ['__proto__', '{"name":"x","__proto__":{"polluted":true}}', /__proto__ is not an allowed field/],
    [
      'constructor.prototype',
      '{"name":"x","constructor":{"prototype":{"polluted":true}}}',
      /constructor is not an allowed field/,
    ],
    ['a __proto__ name that is an object', '{"name":{"__proto__":{"polluted":true}}}', /name/],
  ])('refuses a body with %s keys, naming the field', async (_name, body, message) => {
    await expectRefused(await post(body), 400, message);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps a name that merely looks dangerous as plain data', async () => {
    const { status, json } = await conforming(
      'createCategory',
      await post('{"name":"__proto__","description":"constructor"}'),
    );
    expect(status).toBe(201);
    expect(json).toMatchObject({ name: '__proto__', description: 'constructor' });
    expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
  });

  it('refuses a body sent as text/plain or with no Content-Type with 415, even when it is valid JSON', async () => {
    await expectRefused(await post('{"name":"dog"}', 'text/plain'), 415, /application\/json/);
    await expectRefused(
      await send(fake, '/categories', { method: 'POST', body: new Blob(['{"name":"dog"}']) }),
      415,
      /no Content-Type/,
    );
  });

  it('stored none of the refused bodies', async () => {
    // Seed (3) plus the one deliberate 201 above.
    expect(await categoryCount()).toBe(4);
  });
});

describe('Authorization headers', () => {
  const list = (authorization: string) => send(fake, '/categories', { headers: { authorization } });

  it.each([
    ['a 1,025-character token', `Bearer ${'k'.repeat(1_018)}`, /over 1024 characters/],
    ['a 100 KiB token', `Bearer ${'k'.repeat(100 * 1024)}`, /over 1024 characters/],
    ['no token', 'Bearer', /must be "Bearer <API_KEY>"/],
    ['another scheme', 'Basic ZnJlZS10ZXN0LWtleTo=', /must be "Bearer <API_KEY>"/],
    ['two tokens', 'Bearer free-test-key free-test-key', /must be "Bearer <API_KEY>"/],
    ['a token with a quote', 'Bearer "free-test-key"', /must be "Bearer <API_KEY>"/],
    ['a key with a suffix', 'Bearer free-test-key2', /not valid/],
    ['a key of another case', 'Bearer FREE-TEST-KEY', /not valid/],
  ])('answers %s with 401 invalid_api_key and the invalid_token challenge', async (_name, authorization, message) => {
    const { status, json, headers } = await conforming('listCategories', await list(authorization));
    expect(status).toBe(401);
    expect(json).toMatchObject({ code: 'invalid_api_key', message: expect.stringMatching(message) });
    expect(headers['www-authenticate']).toBe('Bearer realm="petstore", error="invalid_token"');
  });

  it('never echoes the sent credential in the answer', async () => {
    const secret = 'not-a-key-but-secret-1234567890';
    const { text } = await conforming('listCategories', await list(`Bearer ${secret}`));
    expect(text).not.toContain(secret);
  });
});

describe('petId', () => {
  it.each([
    ['int64 max + 1', '9223372036854775808'],
    ['a 400-digit number', '9'.repeat(400)],
    ['zero', '0'],
    ['a negative number', '-1'],
    ['a leading zero', '01'],
    ['a decimal', '1.5'],
    ['an exponent', '1e3'],
    ['hexadecimal', '0x10'],
    ['a word', 'abc'],
    ['an encoded traversal', '..%2F..%2Fetc%2Fpasswd'],
    ['an encoded NUL', '1%00'],
    ['an encoded space', '%201'],
  ])('answers %s with 400 invalid_request', async (_name, petId) => {
    const { status, json, headers } = await conforming('getPetById', await send(fake, `/pets/${petId}`));
    expect(status).toBe(400);
    expect(json).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('petId') });
    expect(headers.deprecation).toBe('@1782864000');
  });

  it('answers int64 max with 404: valid, but no such pet', async () => {
    expect((await conforming('getPetById', await send(fake, '/pets/9223372036854775807'))).status).toBe(404);
  });

  it('lets dot segments move the request as URL parsing does: /pets/.. is /v1/, a 404', async () => {
    const { status, json } = await conforming('undocumented', await send(fake, '/pets/..'));
    expect(status).toBe(404);
    expect(json).toMatchObject({ code: 'not_found' });
  });
});
