import fc from 'fast-check';
import { malformedBodies } from '../generate/malformed-bodies.js';
import { validValues } from '../generate/valid-values.js';
import { operationModels, type OperationModel } from '../generate/operation-model.js';
import { UNTRUSTED_ORIGINS } from '../rules/security-rules.js';
import type { ContractRequest, RequestAuth } from '../core/exchange.js';
import type { Check } from './check.js';
import { requestToAdmit } from './state-checks.js';

const keyIn = (header: string, spell: (key: string) => string, shown: string): RequestAuth => ({
  spell,
  header,
  shown,
  invalid: true,
});

/**
 * Requests an attacker sends to make an answer give something away, for one operation: the key where
 * a careless error message repeats it (a near miss, other carriers, the query), bodies that make a
 * careless parser throw, a hostile Origin. What each answer must not carry is the model's to judge
 * (`credential_never_echoed`, `no_internals_in_answers`, `no_cookies`, `cors_not_open_with_credentials`).
 */
function provocations(
  model: OperationModel,
  plain: ContractRequest,
  seed: number,
  parsesStrictly: boolean,
): ContractRequest[] {
  const requests: ContractRequest[] = [
    { ...plain, auth: { spell: (key) => `Bearer ${key}-x`, shown: 'Bearer ${PETSTORE_API_KEY}-x', invalid: true } },
    { ...plain, auth: keyIn('X-API-Key', (key) => key, '${PETSTORE_API_KEY}') },
    { ...plain, auth: keyIn('Cookie', (key) => `api_key=${key}`, 'api_key=${PETSTORE_API_KEY}') },
    { ...plain, auth: { spell: (key) => key, query: 'access_token', invalid: true } },
    ...UNTRUSTED_ORIGINS.map((origin) => ({ ...plain, headers: { Origin: origin } })),
    { ...plain, path: `${plain.path}/..%2f..%2f..%2fetc%2fpasswd` },
    { ...plain, path: `${plain.path}?limit=1000000000&page_size=-1&debug=true&trace=1` },
  ];
  // Only where the target answers malformed bodies as the spec says (Prism takes them: skipped there with its reason).
  if (model.bodySchema && parsesStrictly)
    for (const kind of malformedBodies(validValues(model.bodySchema))) {
      const [body] = fc.sample(kind, { numRuns: 1, seed });
      if (body) requests.push({ method: plain.method, path: plain.path, rawBody: body.bytes });
    }
  return requests;
}

/** Nothing an answer carries gives away a credential, internals or an ambient credential, whatever the request. */
export const answersLeakNothing: Check = {
  name: 'answers_leak_nothing',
  verifies:
    'for every operation, requests an attacker sends (the key near-missed or in other carriers, a hostile Origin, traversal and debug parameters, bodies that break parsers) get answers that carry no credential, no stack trace, file path or server version, no cookie, and no CORS grant to any origin with credentials (OWASP API2, API8)',
  needs: [],
  async run(context) {
    const { send, capabilities, seed, patience } = context;
    const paced = patience() !== undefined;
    let readDone = false;
    for (const model of operationModels()) {
      if (!model.safe && !capabilities.includes('writes')) continue;
      // Where the key's quota limits the run: every provocation on one read and on every write.
      if (paced && model.safe && readDone) continue;
      readDone ||= model.safe;
      const plain = await requestToAdmit(context, model);
      for (const request of provocations(model, plain, seed, capabilities.includes('uniformErrors')))
        await send(request);
    }
  },
};

/** Chromium's Accept for a page navigation. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

/**
 * One of each kind of answer the interface has, for every operation, so every rule of the table
 * that one answer can show is tried on every target whatever the budget: the success, no key, an
 * unknown key, an invalid parameter or body, an unknown path, another method.
 */
export const answersKeepTheProtocol: Check = {
  name: 'answers_keep_the_protocol',
  verifies:
    'every kind of answer of every operation (success, 401 without and with a key, 400, 404, 405, and each asked for by a browser that prefers HTML) keeps the rule table: representation metadata, JSON (UTF-8, no BOM, unique member names), challenges, Allow, Retry-After, Cache-Control on keyed answers',
  needs: [],
  async run(context) {
    const { send, capabilities } = context;
    for (const model of operationModels()) {
      if (!model.safe && !capabilities.includes('writes')) continue;
      const plain = await requestToAdmit(context, model);
      await send(plain);
      await send({ ...plain, auth: 'none' });
      await send({ ...plain, auth: { bearer: 'not-a-key-of-this-service' } });
      if (model.pathParameters.length > 0)
        await send({ ...plain, path: model.operation.path.replace(/\{[^}]+\}/g, 'not-a-value') });
      if (model.bodySchema) await send({ ...plain, json: [] });
      // What a browser sends when a person opens the URL: the spec's answers are JSON whatever Accept says.
      await send({ ...plain, auth: 'none', headers: { Accept: BROWSER_ACCEPT } });
    }
    await send({ method: 'GET', path: '/no-such-resource' });
    await send({ method: 'GET', path: '/no-such-resource', headers: { Accept: BROWSER_ACCEPT } });
  },
};
