// Property tests over the fake's handlers, in-process: whatever a client sends, the answer is the
// documented success or a 4xx Error that conforms to the spec, never a 5xx or a thrown exception, and
// the store changes only when the answer is 201. Counterexamples fast-check found and shrank are kept
// as ordinary tests in regressions.test.ts (and malformed-path.test.ts).
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { specDocument } from '../../spec/spec-artifacts.js';
import { SchemaRegistry } from '../../spec/schema-registry.js';
import { DEFAULT_KEYS } from '../../mocks/domain/plans.js';
import type { Category } from '../../mocks/domain/seed.js';
import { conforming } from '../support/spec-conformance.js';
import { authorizationHeader, contentTypeHeader, petIdSegment, requestBodyBytes } from './arbitraries.js';
import { BASE_URL, inProcessFake, send, UNLIMITED_KEY } from './in-process-fake.js';

const RUNS = { numRuns: 300, interruptAfterTimeLimit: 60_000 };
const validNewCategory = new SchemaRegistry(specDocument()).validator('NewCategory');
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** What the fake must do with a body, decided independently of it: JSON object per the spec, or not. */
function acceptableCategory(
  bytes: Uint8Array,
  contentType: string,
): { name: string; description?: string } | undefined {
  if (!/^application\/json\s*(;.*)?$/i.test(contentType.trim()) || bytes.byteLength > 16 * 1024) return undefined;
  try {
    const value: unknown = JSON.parse(strictUtf8.decode(bytes));
    return validNewCategory(value) ? (value as { name: string; description?: string }) : undefined;
  } catch {
    return undefined;
  }
}

function isClientError(status: number): boolean {
  return status >= 400 && status < 500;
}

describe('POST /categories with any body and Content-Type', () => {
  it('answers 201 exactly when the body is a valid NewCategory, else a 4xx Error; the store changes only on 201', async () => {
    const fake = inProcessFake();
    const list = async () => (await conforming('listCategories', await send(fake, '/categories'))).json as Category[];
    await fc.assert(
      fc.asyncProperty(requestBodyBytes, contentTypeHeader, async (bytes, contentType) => {
        const before = await list();
        const response = await send(fake, '/categories', {
          method: 'POST',
          headers: { 'content-type': contentType },
          body: bytes,
        });
        const { status, json } = await conforming('createCategory', response);
        const after = await list();
        const expected = acceptableCategory(bytes, contentType);
        if (expected) {
          expect(status).toBe(201);
          const created = json as Category;
          expect(created).toEqual({
            id: created.id,
            name: expected.name,
            ...(expected.description !== undefined && { description: expected.description }),
          });
          expect(after).toEqual([...before, created]);
        } else {
          expect(isClientError(status)).toBe(true);
          expect(after).toEqual(before);
        }
      }),
      RUNS,
    );
  });
});

describe('GET /pets/{petId} with any path segment', () => {
  it('answers 200, 400 or 404 per the spec; 400 exactly when petId is not a positive int64', async () => {
    const fake = inProcessFake();
    await fc.assert(
      fc.asyncProperty(petIdSegment, async (segment) => {
        const request = new Request(`${BASE_URL}/pets/${segment}`);
        const pathname = new URL(request.url).pathname;
        const response = await send(fake, `/pets/${segment}`);
        // Dot segments ('..', '%2e%2e') move the request to another path before it reaches the fake.
        if (!/^\/v1\/pets\/[^/]+\/?$/.test(pathname)) {
          expect(isClientError((await conforming('undocumented', response)).status)).toBe(true);
          return;
        }
        const { status } = await conforming('getPetById', response);
        let decoded: string | undefined;
        try {
          decoded = decodeURIComponent(pathname.split('/')[3]!);
        } catch {
          decoded = undefined;
        }
        const valid = decoded !== undefined && /^[1-9][0-9]{0,18}$/.test(decoded) && BigInt(decoded) < 2n ** 63n;
        expect(valid ? [200, 404] : [400]).toContain(status);
      }),
      RUNS,
    );
  });
});

describe('any Authorization header', () => {
  it('is 200 exactly for a bearer form of a configured key, else 401 with a challenge', async () => {
    const fake = inProcessFake();
    const keys = [...DEFAULT_KEYS.map((apiKey) => apiKey.key), UNLIMITED_KEY.key];
    let client = 0;
    await fc.assert(
      fc.asyncProperty(authorizationHeader(keys), async (authorization) => {
        // A new client address each run: the anonymous bucket (60 a minute) must not turn 401s into 429s.
        const request = new Request(`${BASE_URL}/categories`, { headers: { authorization } });
        const response = await fake.handle(request, `10.0.${client >> 8}.${client++ & 255}`);
        const { status, headers } = await conforming('listCategories', response!);
        // Headers trims surrounding whitespace; the fake then wants "Bearer", spaces, a configured key.
        const match = /^bearer +(\S+)$/i.exec(authorization.trim());
        const isKey = match !== null && keys.includes(match[1]!);
        if (isKey) expect(status).toBe(200);
        else {
          expect(status).toBe(401);
          expect(headers['www-authenticate']).toMatch(/^Bearer realm="petstore"/);
        }
      }),
      RUNS,
    );
  });
});
