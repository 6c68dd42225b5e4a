import fc from 'fast-check';
import { exampleRequest, operationModels } from '../generate/operation-model.js';
import { checkProperty } from './property.js';
import { errorCodeOf, headerOf, type ContractRequest, type Exchange, type RequestAuth } from '../core/exchange.js';
import type { Check, CheckContext } from './check.js';
import { expectConforms, expectErrorBody, expectStatus, expectThat } from './expectations.js';
import { isBearerCredential } from '../rules/http-grammar.js';
import { underRule } from './rule-reports.js';

function expectBearerChallenge(exchange: Exchange, context: string, invalidToken: boolean): void {
  const challenge = headerOf(exchange, 'www-authenticate');
  expectThat(
    challenge !== undefined && /^Bearer\b/i.test(challenge),
    `Missing Bearer WWW-Authenticate (${context})`,
    [`Received: WWW-Authenticate: ${challenge ?? '(none)'} / Expected: Bearer ...`],
    exchange,
  );
  if (invalidToken) {
    expectThat(
      /error="invalid_token"/.test(challenge),
      `WWW-Authenticate lacks error="invalid_token" (${context})`,
      [`Received: WWW-Authenticate: ${challenge}`],
      exchange,
    );
  }
}

/**
 * `either`: a credential of another, well-formed scheme (`Basic ...`, `Token <key>`, the key alone, a
 * bare `Bearer`). The spec names only a missing and an invalid key; RFC 6750 §3.1 says a request that
 * "attempted using an unsupported authentication method" lacks authentication information, whose
 * challenge "SHOULD NOT include an error code". So `missing_api_key` without `error`, or
 * `invalid_api_key` with `error="invalid_token"` (the fake's choice), are both the spec's answer.
 */
async function expectRejected(
  context: CheckContext,
  operationId: string,
  request: ContractRequest,
  code: 'missing_api_key' | 'invalid_api_key' | 'either',
  what: string,
): Promise<void> {
  const exchange = await context.send(request);
  expectStatus(exchange, [401], what);
  const answered = code === 'either' && errorCodeOf(exchange) === 'missing_api_key' ? 'missing_api_key' : code;
  const expected = answered === 'either' ? 'invalid_api_key' : answered;
  expectBearerChallenge(exchange, what, expected === 'invalid_api_key');
  expectErrorBody(exchange, expected, what);
  expectConforms(operationId, exchange, what);
}

// By kind: a read any target takes; a create, replace or delete only where writes are allowed.
const reads = () => operationModels().filter((model) => model.kind === 'read');
const writes = () => operationModels().filter((model) => model.kind !== 'read');

/** `otherScheme`: another well-formed auth-scheme, or none at all (see {@link expectRejected}). */
type Credential = { what: string; auth: RequestAuth; otherScheme?: true };

/**
 * The key where the spec does not take it (its only place is `Authorization: Bearer`): the usual other
 * places, which a lenient service reads too. The query one puts the key in the target's access log.
 */
const KEY_ELSEWHERE: Credential[] = [
  {
    what: 'the key in an X-API-Key header',
    auth: { spell: (key) => key, header: 'X-API-Key', shown: '${PETSTORE_API_KEY}', invalid: true },
  },
  {
    what: 'the key in an api_key cookie',
    auth: { spell: (key) => `api_key=${key}`, header: 'Cookie', shown: 'api_key=${PETSTORE_API_KEY}', invalid: true },
  },
  { what: 'the key in the api_key query parameter', auth: { spell: (key) => key, query: 'api_key', invalid: true } },
];

/** The key in a write's body: the form RFC 6750 §2.2 defines, and a member of the JSON body. */
const KEY_IN_BODY: Credential[] = [
  { what: 'the key as a form body (access_token=)', auth: { spell: (key) => key, body: 'form', invalid: true } },
  { what: 'the key as an access_token member of the body', auth: { spell: (key) => key, body: 'json', invalid: true } },
];

/** Every read without `Authorization` (no key at all, or the key somewhere else) answers 401 `missing_api_key` with a Bearer challenge. */
export const missingApiKeyRejected: Check = {
  name: 'missing_api_key_rejected',
  verifies:
    'every read (from the spec) without Authorization answers 401 missing_api_key, WWW-Authenticate: Bearer and an Error, also when the key is in an X-API-Key header, a cookie or the query',
  needs: [],
  async run(context) {
    for (const model of reads()) {
      const request = exampleRequest(model, { auth: 'none' });
      await expectRejected(
        context,
        model.operation.operationId,
        request,
        'missing_api_key',
        `${request.method} ${request.path} without a key`,
      );
      for (const { what, auth } of KEY_ELSEWHERE) {
        const elsewhere = exampleRequest(model, { auth });
        const where = `${elsewhere.method} ${elsewhere.path} with ${what} and no Authorization`;
        await underRule('credential_only_where_declared', () =>
          expectRejected(context, model.operation.operationId, elsewhere, 'missing_api_key', where),
        );
      }
    }
  },
};

const near = (spell: (key: string) => string, shown: string): RequestAuth => ({
  spell,
  shown: `Bearer ${shown}`,
  invalid: true,
});

/** Near misses of the real key (what a prefix match, case folding or trimming would let in), other schemes, no token: always tried. */
const NEAR_MISSES: Credential[] = [
  { what: 'the key with a character added', auth: near((key) => `Bearer ${key}x`, '${PETSTORE_API_KEY}x') },
  {
    what: 'the key less its last character',
    auth: near((key) => `Bearer ${key.slice(0, -1)}`, '${PETSTORE_API_KEY%?}'),
  },
  {
    what: 'the key in upper case',
    auth: near(
      (key) => `Bearer ${key.toUpperCase() === key ? key.toLowerCase() : key.toUpperCase()}`,
      '${PETSTORE_API_KEY^^}',
    ),
  },
  { what: 'the key in quotes', auth: near((key) => `Bearer "${key}"`, '\\"${PETSTORE_API_KEY}\\"') },
  { what: 'the key twice', auth: near((key) => `Bearer ${key} ${key}`, '${PETSTORE_API_KEY} ${PETSTORE_API_KEY}') },
  {
    what: 'the key without a scheme',
    auth: { spell: (key: string) => key, shown: '${PETSTORE_API_KEY}', invalid: true },
    otherScheme: true,
  },
  {
    what: 'the key after "Bearer" with no space',
    auth: { spell: (key: string) => `Bearer${key}`, shown: 'Bearer${PETSTORE_API_KEY}', invalid: true },
    otherScheme: true,
  },
  {
    what: 'the key with the Token scheme',
    auth: { spell: (key: string) => `Token ${key}`, shown: 'Token ${PETSTORE_API_KEY}', invalid: true },
    otherScheme: true,
  },
  { what: 'a Basic credential', auth: { authorization: 'Basic Zm9vOmJhcg==' }, otherScheme: true },
  { what: 'an empty Bearer token', auth: { authorization: 'Bearer' }, otherScheme: true },
  // What a comparison that normalises the token first would let in: padding stripped, percent-decoding,
  // base64url read as base64, a trim wider than HTTP's (JavaScript's trim() takes U+00A0; \v and \f no
  // HTTP field may carry at all).
  { what: 'the key with "=" padding', auth: near((key) => `Bearer ${key}==`, '${PETSTORE_API_KEY}==') },
  {
    what: 'the key with a character percent-encoded',
    auth: near((key) => `Bearer ${percentEncodeOne(key)}`, '${PETSTORE_API_KEY} with one character as %XX'),
  },
  {
    what: 'the key with base64url characters read as base64',
    auth: near(
      (key) => `Bearer ${swapBase64Alphabet(key)}`,
      "$(printf %s \"$PETSTORE_API_KEY\" | tr -- '-_+/' '+/-_')",
    ),
  },
  {
    what: 'the key followed by U+00A0 (not HTTP whitespace)',
    auth: near((key) => `Bearer ${key}\u00a0`, "${PETSTORE_API_KEY}$'\\u00a0'"),
  },
  // OWASP API4: a credential far longer than any key is refused like any other, never a 5xx.
  {
    what: 'the key followed by 4,000 characters',
    auth: near((key) => `Bearer ${key}${'A'.repeat(4_000)}`, '${PETSTORE_API_KEY}AAAA... (4,000 A)'),
  },
];

/** The key with its first encodable character written as a percent-escape (`-` as `%2D`). */
function percentEncodeOne(key: string): string {
  const at = key.search(/[^A-Za-z0-9]/);
  const index = at >= 0 ? at : 0;
  return `${key.slice(0, index)}%${key.charCodeAt(index).toString(16).toUpperCase().padStart(2, '0')}${key.slice(index + 1)}`;
}

/** The key with `-`/`_` and `+`/`/` swapped: base64url and base64 spellings of the same bytes. */
function swapBase64Alphabet(key: string): string {
  const swapped = key.replace(/[-_+/]/g, (char) => ({ '-': '+', _: '/', '+': '-', '/': '_' })[char]!);
  return swapped === key ? `${key}+` : swapped;
}

/** Random well-formed tokens that are not the key. */
const UNKNOWN_KEYS: fc.Arbitrary<Credential> = fc.stringMatching(/^[A-Za-z0-9._~+/-]{1,48}$/).map((token) => ({
  what: 'an unknown key',
  auth: { spell: (key: string) => `Bearer ${token === key ? `${token}x` : token}`, invalid: true },
}));

/** A key as services issue them (b64token characters), to tell what shape a spelling gives any key. */
const SAMPLE_KEY = 'k3y-Sample_1';

/**
 * Whether a credential's Authorization is no `Bearer 1*SP b64token` at all (the key in quotes, twice, with
 * U+00A0 after it): the spec names two codes for a refused key and does not say which such a field gets.
 */
function spellsNoBearerCredential(auth: RequestAuth): boolean {
  if (typeof auth !== 'object' || !('spell' in auth) || auth.header || auth.query || auth.body) return false;
  return !isBearerCredential(auth.spell(SAMPLE_KEY));
}

/**
 * Every read with a credential that is not the key answers 401: `invalid_api_key` for a well-formed
 * bearer token, either code for another scheme or a field that is no bearer credential.
 */
export const invalidApiKeyRejected: Check = {
  name: 'invalid_api_key_rejected',
  verifies:
    'every read with a generated invalid credential (near misses of the key, other schemes, random tokens) answers 401 invalid_api_key with error="invalid_token"; another scheme, or a field that is no bearer credential (the key in quotes, twice, with U+00A0), may instead answer missing_api_key without error (the spec names both codes and says not which; RFC 6750 §3.1)',
  needs: ['realAuth'],
  async run(context) {
    for (const [index, model] of reads().entries()) {
      // Each near miss once on every target; on every read only where the quota does not limit the run.
      const examples = index === 0 || context.patience() === undefined ? NEAR_MISSES : [];
      await checkProperty(
        context,
        `${model.operation.operationId} credentials`,
        UNKNOWN_KEYS,
        async ({ what, auth, otherScheme }) => {
          const request = exampleRequest(model, { auth });
          await expectRejected(
            context,
            model.operation.operationId,
            request,
            otherScheme || spellsNoBearerCredential(auth) ? 'either' : 'invalid_api_key',
            `${request.method} ${request.path} with ${what}`,
          );
        },
        { examples, runs: Math.ceil(context.runs / 4), describe: ({ what }) => what },
      );
    }
  },
};

/** Every write with a valid body but no key, or an unknown key, answers 401 (and so creates nothing). */
export const createRequiresApiKey: Check = {
  name: 'create_requires_api_key',
  verifies:
    'every write (from the spec) with a valid body and no key, the key in the body (a form, an access_token member) or an unknown key answers 401 with a Bearer challenge',
  needs: ['writes', 'realAuth'],
  async run(context) {
    for (const model of writes()) {
      const { operationId } = model.operation;
      const anonymous = exampleRequest(model, { auth: 'none' });
      await expectRejected(
        context,
        operationId,
        anonymous,
        'missing_api_key',
        `${anonymous.method} ${anonymous.path} without a key`,
      );
      // RFC 6750 §2.2 and §2.3 define body and query carriers; the spec declares only the header.
      for (const { what, auth } of KEY_IN_BODY) {
        const elsewhere = exampleRequest(model, { auth });
        await expectRejected(
          context,
          operationId,
          elsewhere,
          'missing_api_key',
          `${elsewhere.method} ${elsewhere.path} with ${what} and no Authorization`,
        );
      }
      const guessed = exampleRequest(model, { auth: near((key) => `Bearer ${key}x`, '${PETSTORE_API_KEY}x') });
      await expectRejected(
        context,
        operationId,
        guessed,
        'invalid_api_key',
        `${guessed.method} ${guessed.path} with the key and a character more`,
      );
    }
  },
};
