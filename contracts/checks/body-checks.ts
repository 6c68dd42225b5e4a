import { invalidBodiesFor, type InvalidBody } from '../data/invalid-bodies.js';
import type { Check } from './check.js';
import { expectConforms, expectErrorBody, expectStatus, expectThat } from './expectations.js';

/** The name every invalid body carries where a name is due, so a wrongly stored one is recognisable. */
const INVALID_BODY_NAME = 'contract-invalid-body';

// Cases the schema cannot generate: a client choosing the id, and a well-formed body with a bad name next to it.
const HAND_WRITTEN_BODIES: InvalidBody[] = [
  { breaks: 'id chosen by the client', body: { name: INVALID_BODY_NAME, id: 999_999 } },
  { breaks: 'name: maxLength 100, with a valid description', body: { name: 'y'.repeat(101), description: 'fine' } },
];

/** The invalid NewCategory bodies the suite sends: generated from the schema, plus the hand-written few. */
export function invalidNewCategoryBodies(): InvalidBody[] {
  return [...invalidBodiesFor('NewCategory', { name: INVALID_BODY_NAME }), ...HAND_WRITTEN_BODIES];
}

/** Every invalid NewCategory body answers 400 `invalid_request`. */
export const invalidBodyRejected: Check = {
  name: 'invalid_body_rejected',
  verifies: 'each NewCategory body breaking one schema constraint (generated from the spec) answers 400 invalid_request',
  needs: ['writes'],
  async run({ send }) {
    for (const { breaks, body } of invalidNewCategoryBodies()) {
      const exchange = await send({ method: 'POST', path: '/categories', json: body });
      expectStatus(exchange, [400], `body breaking ${breaks}`);
      expectErrorBody(exchange, 'invalid_request', `body breaking ${breaks}`);
      expectConforms('createCategory', exchange, `body breaking ${breaks}`);
    }
  },
};

/** The category list is unchanged after every invalid body, whatever the answers were. */
export const invalidBodyNotStored: Check = {
  name: 'invalid_body_not_stored',
  verifies: 'after every invalid NewCategory body the category list is unchanged (nothing invalid is stored)',
  needs: ['writes', 'stateful'],
  async run({ send }) {
    const before = await send({ method: 'GET', path: '/categories' });
    expectStatus(before, [200], 'the list before');
    expectConforms('listCategories', before, 'the list before');
    const known = new Set((before.json as Array<{ id: unknown }>).map((category) => category.id));
    for (const { body } of invalidNewCategoryBodies()) await send({ method: 'POST', path: '/categories', json: body });
    const after = await send({ method: 'GET', path: '/categories' });
    expectStatus(after, [200], 'the list after');
    expectConforms('listCategories', after, 'the list after');
    const added = (after.json as Array<{ id: unknown }>).filter((category) => !known.has(category.id));
    expectThat(added.length === 0, 'Invalid bodies were stored', [
      `Received: ${added.length} new categor${added.length === 1 ? 'y' : 'ies'} / Expected: none`,
      ...added.slice(0, 5).map((category) => `Stored: ${JSON.stringify(category)}`),
    ], after);
  },
};

/** Bodies that are not JSON at all answer 400 `invalid_request`. */
export const malformedJsonRejected: Check = {
  name: 'malformed_json_rejected',
  verifies: 'a POST /categories body that is not valid JSON answers 400 invalid_request with an Error',
  needs: ['writes', 'uniformErrors'],
  async run({ send }) {
    for (const rawBody of ['{"name":', "{'name': 'single quotes'}", '{"name":"trailing comma",}']) {
      const exchange = await send({ method: 'POST', path: '/categories', rawBody });
      expectStatus(exchange, [400], `body ${rawBody}`);
      expectErrorBody(exchange, 'invalid_request', `body ${rawBody}`);
      expectConforms('createCategory', exchange, `body ${rawBody}`);
    }
  },
};

/** A body that is not `application/json` answers 415, even when its bytes happen to be JSON. */
export const unsupportedMediaTypeRejected: Check = {
  name: 'unsupported_media_type_rejected',
  verifies: 'POST /categories with a Content-Type other than application/json answers 415 unsupported_media_type',
  needs: ['writes'],
  async run({ send }) {
    const bodies = [
      { contentType: 'text/plain', rawBody: '{"name":"contract-text-plain"}' },
      { contentType: 'application/x-www-form-urlencoded', rawBody: 'name=contract-form' },
    ];
    for (const { contentType, rawBody } of bodies) {
      const exchange = await send({ method: 'POST', path: '/categories', rawBody, contentType });
      expectStatus(exchange, [415], `Content-Type ${contentType}`);
      expectErrorBody(exchange, 'unsupported_media_type', `Content-Type ${contentType}`);
      expectConforms('createCategory', exchange, `Content-Type ${contentType}`);
    }
  },
};

/** The largest body accepted is 16 KiB (design.md); whitespace makes a schema-valid body bigger. */
const OVERSIZED_BODY = `{"name":"contract-oversized"}${' '.repeat(17 * 1024)}`;

/** A valid but oversized body answers 413 `payload_too_large`. */
export const payloadTooLargeRejected: Check = {
  name: 'payload_too_large_rejected',
  verifies: 'a schema-valid POST /categories body over 16 KiB answers 413 payload_too_large',
  needs: ['writes', 'bodyLimit'],
  async run({ send }) {
    const exchange = await send({ method: 'POST', path: '/categories', rawBody: OVERSIZED_BODY });
    expectStatus(exchange, [413], `a ${OVERSIZED_BODY.length}-byte body`);
    expectErrorBody(exchange, 'payload_too_large', 'an oversized body');
    expectConforms('createCategory', exchange, 'an oversized body');
  },
};
