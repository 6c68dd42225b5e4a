// fast-check generators of hostile input for the fake: request bodies, header values, path segments.
import fc from 'fast-check';

const utf8 = new TextEncoder();

/** Keys that break naive object handling, mixed with the real fields and arbitrary strings. */
const objectKey = fc.oneof(
  fc.constantFrom(
    'name',
    'description',
    '__proto__',
    'constructor',
    'prototype',
    'id',
    'toString',
    'hasOwnProperty',
    '',
  ),
  fc.string({ maxLength: 12 }),
);

/** Names and descriptions around their limits: empty, blank, 100/101 and 500/501 characters, any Unicode. */
const fieldText = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 120 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\t\n\u00a0\u2028',
    'a'.repeat(100),
    'a'.repeat(101),
    'd'.repeat(500),
    'd'.repeat(501),
    '\u0000',
    '😀'.repeat(100),
    '😀'.repeat(101),
  ),
);

const fieldValue = fc.oneof(fieldText, fc.jsonValue({ maxDepth: 3 }));

/**
 * JSON object text written member by member, so `__proto__` stays an ordinary key and duplicate
 * keys (the last one wins in JSON.parse) reach the fake as sent.
 */
const objectText = fc
  .array(fc.tuple(objectKey, fieldValue), { maxLength: 5 })
  .map((members) => `{${members.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')}}`);

/** Bodies that look like a NewCategory: each field present or not, at or past its limits. */
const categoryLikeText = fc
  .record({ name: fieldValue, description: fieldValue }, { requiredKeys: [] })
  .map((body) => JSON.stringify(body));

/** Bodies likely to be valid, so that the 201 side of the property is exercised too. */
const plausibleCategoryText = fc
  .record(
    { name: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 100 }), description: fc.string({ maxLength: 500 }) },
    { requiredKeys: ['name'] },
  )
  .map((body) => JSON.stringify(body));

/** Text that is almost JSON: truncated, with trailing garbage, deeply nested, or not JSON at all. */
const almostJsonText = fc.oneof(
  fc.tuple(categoryLikeText, fc.string({ maxLength: 10 })).map(([json, tail]) => json + tail),
  fc.tuple(categoryLikeText, fc.nat()).map(([json, cut]) => json.slice(0, cut % (json.length + 1))),
  fc.integer({ min: 1, max: 8_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.integer({ min: 1, max: 2_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  fc.string({ maxLength: 60 }),
);

/** Any request body as bytes: valid-looking JSON, near misses, random bytes, UTF-8 broken on purpose. */
export const requestBodyBytes: fc.Arbitrary<Uint8Array<ArrayBuffer>> = fc.oneof(
  { arbitrary: plausibleCategoryText.map((text) => utf8.encode(text)), weight: 3 },
  {
    arbitrary: fc
      .oneof(
        categoryLikeText,
        objectText,
        fc.jsonValue().map((value) => JSON.stringify(value) ?? 'null'),
      )
      .map((text) => utf8.encode(text)),
    weight: 4,
  },
  { arbitrary: almostJsonText.map((text) => utf8.encode(text)), weight: 2 },
  { arbitrary: fc.uint8Array({ maxLength: 64 }), weight: 1 },
  {
    arbitrary: fc
      .integer({ min: 16 * 1024 - 16, max: 16 * 1024 + 16 })
      .map((size) => utf8.encode(`{"name":"big"}${' '.repeat(size - 14)}`)),
    weight: 1,
  },
  {
    // A valid body with one byte replaced by one that can never start or continue UTF-8 correctly there.
    arbitrary: fc
      .tuple(categoryLikeText, fc.nat(), fc.constantFrom(0x80, 0xbf, 0xc0, 0xc1, 0xf5, 0xff, 0xed))
      .map(([text, at, byte]) => {
        const bytes = utf8.encode(text);
        bytes[at % bytes.length] = byte;
        return bytes;
      }),
    weight: 1,
  },
);

/** `Content-Type` values: JSON ones with odd casing and parameters, near misses, and arbitrary printable text. */
export const contentTypeHeader = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json;charset=latin1',
    ),
    weight: 4,
  },
  {
    arbitrary: fc.constantFrom(
      'text/plain',
      'application/jsonx',
      'application/json-patch+json',
      'multipart/form-data; boundary=x',
      '',
    ),
    weight: 1,
  },
  { arbitrary: fc.stringMatching(/^[\x20-\x7e]{0,40}$/), weight: 1 },
);

/** `Authorization` values a Headers object accepts: near-miss bearer forms, the real keys in odd shapes, noise. */
export const authorizationHeader = (keys: readonly string[]) =>
  fc.oneof(
    fc
      .tuple(
        fc.mixedCase(fc.constant('bearer')),
        fc.stringMatching(/^ {1,3}$/),
        fc.constantFrom(...keys),
        fc.stringMatching(/^ {0,2}$/),
      )
      .map((parts) => parts.join('')),
    fc.constantFrom(...keys).map((key) => key),
    fc
      .tuple(fc.constantFrom('Bearer ', 'Basic ', 'Token ', 'Bearer  ', ''), fc.stringMatching(/^[\x21-\x7e]{0,60}$/))
      .map(([scheme, token]) => scheme + token),
    fc.stringMatching(/^[\x20-\x7e]{0,80}$/),
    fc.integer({ min: 1_000, max: 3_000 }).map((size) => `Bearer ${'k'.repeat(size)}`),
  );

/** Path segments for `/pets/{petId}`: numbers around int64's edges, encoded text, malformed escapes, dot segments. */
export const petIdSegment = fc.oneof(
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map((n) => n.toString()),
  fc.constantFrom(
    '0',
    '1',
    '01',
    '9223372036854775807',
    '9223372036854775808',
    '1e3',
    '0x10',
    '1.0',
    ' 1',
    '..',
    '.',
    '%2e%2e',
    '..%2f..%2fetc%2fpasswd',
    '%00',
    '%',
  ),
  fc.string({ maxLength: 20 }).map((text) => encodeURIComponent(text)),
  fc.stringMatching(/^(%[0-9A-Za-z]{0,2}|[0-9a-z])+$/, { maxLength: 12 }),
);
