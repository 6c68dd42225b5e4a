import { headerOf, type ContractRequest, type Exchange, type RequestAuth } from '../transport/exchange.js';
import type { Check } from './check.js';
import { expectConforms, expectErrorBody, expectStatus, expectThat } from './expectations.js';

/** The read operations; every one of them needs the key. */
const READ_OPERATIONS = [
  { operationId: 'listCategories', path: '/categories' },
  { operationId: 'getPetById', path: '/pets/1' },
  { operationId: 'listOrders', path: '/store/orders' },
] as const;

const UNKNOWN_KEY = 'contract-suite-unknown-key-0000';

function expectBearerChallenge(exchange: Exchange, context: string, invalidToken: boolean): void {
  const challenge = headerOf(exchange, 'www-authenticate');
  expectThat(challenge !== undefined && /^Bearer\b/i.test(challenge), `Missing Bearer WWW-Authenticate (${context})`, [
    `Received: WWW-Authenticate: ${challenge ?? '(none)'} / Expected: Bearer ...`,
  ], exchange);
  if (invalidToken) {
    expectThat(/error="invalid_token"/.test(challenge), `WWW-Authenticate lacks error="invalid_token" (${context})`, [
      `Received: WWW-Authenticate: ${challenge}`,
    ], exchange);
  }
}

async function expectRejected(
  send: (request: ContractRequest) => Promise<Exchange>,
  operationId: string,
  request: ContractRequest,
  code: 'missing_api_key' | 'invalid_api_key',
  context: string,
): Promise<void> {
  const exchange = await send(request);
  expectStatus(exchange, [401], context);
  expectBearerChallenge(exchange, context, code === 'invalid_api_key');
  expectErrorBody(exchange, code, context);
  expectConforms(operationId, exchange, context);
}

/** Every read operation without `Authorization` answers 401 `missing_api_key` with a Bearer challenge. */
export const missingApiKeyRejected: Check = {
  name: 'missing_api_key_rejected',
  verifies: 'each read operation without a key answers 401 missing_api_key, WWW-Authenticate: Bearer and an Error',
  needs: [],
  async run({ send }) {
    for (const { operationId, path } of READ_OPERATIONS) {
      await expectRejected(send, operationId, { method: 'GET', path, auth: 'none' }, 'missing_api_key', `GET ${path} without a key`);
    }
  },
};

const INVALID_CREDENTIALS: ReadonlyArray<{ auth: RequestAuth; what: string }> = [
  { auth: { bearer: UNKNOWN_KEY }, what: 'an unknown key' },
  { auth: { authorization: 'Basic Zm9vOmJhcg==' }, what: 'a Basic credential' },
  { auth: { authorization: 'Bearer' }, what: 'an empty Bearer token' },
];

/** Every read operation with an unknown key or a malformed header answers 401 `invalid_api_key`. */
export const invalidApiKeyRejected: Check = {
  name: 'invalid_api_key_rejected',
  verifies: 'each read operation with an unknown key or a malformed Authorization answers 401 invalid_api_key with error="invalid_token"',
  needs: ['realAuth'],
  async run({ send }) {
    for (const { operationId, path } of READ_OPERATIONS) {
      for (const { auth, what } of INVALID_CREDENTIALS) {
        await expectRejected(send, operationId, { method: 'GET', path, auth }, 'invalid_api_key', `GET ${path} with ${what}`);
      }
    }
  },
};

/** POST /categories with a valid body but no key, or an unknown key, answers 401 (and so creates nothing). */
export const createRequiresApiKey: Check = {
  name: 'create_requires_api_key',
  verifies: 'POST /categories with a valid body and no key or an unknown key answers 401 with a Bearer challenge',
  needs: ['writes', 'realAuth'],
  async run({ send }) {
    const json = { name: 'contract-unauthorised' };
    await expectRejected(send, 'createCategory', { method: 'POST', path: '/categories', json, auth: 'none' }, 'missing_api_key', 'POST /categories without a key');
    await expectRejected(send, 'createCategory', { method: 'POST', path: '/categories', json, auth: { bearer: UNKNOWN_KEY } }, 'invalid_api_key', 'POST /categories with an unknown key');
  },
};
