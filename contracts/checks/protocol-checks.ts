import { operationsOnPath } from '../core/spec-operations.js';
import { exampleRequest, operationModels, pathOf, type OperationModel } from '../generate/operation-model.js';
import { malformedCredentials, methodProbes, SAFE_METHODS } from '../generate/protocol-requests.js';
import { headerOf, type ContractRequest, type Exchange } from '../core/exchange.js';
import type { Check } from './check.js';
import { expectErrorBody, expectStatus } from './expectations.js';
import { judgeAllowed, judgeHead, judgeMethodOverride } from './method-judges.js';
import { BROWSER_ORIGIN, parserRefusal, reportRule, sendOrNothing, underRule } from './rule-reports.js';
import { recoversBearerToken } from '../rules/http-grammar.js';

/** The spec names two codes for a refused key ("missing_api_key and invalid_api_key (401)") and never says which a malformed field gets. */
const KEY_REFUSED = ['missing_api_key', 'invalid_api_key'] as const;

/** The distinct paths of the spec, each with a concrete value for its parameters. */
function specPaths(): Array<{ template: string; path: string; get?: OperationModel }> {
  const byTemplate = new Map<string, { template: string; path: string; get?: OperationModel }>();
  for (const model of operationModels()) {
    const entry = byTemplate.get(model.operation.path) ?? { template: model.operation.path, path: pathOf(model) };
    if (model.operation.method === 'GET') entry.get = model;
    byTemplate.set(model.operation.path, entry);
  }
  return [...byTemplate.values()];
}

/** Every method token on every path of the spec: routed after the key, 405 with Allow, never admitted. */
export const everyMethodRouted: Check = {
  name: 'every_method_routed',
  verifies:
    "every method token a path lacks (the interface's others, standard, extension, lower- and mixed-case spellings of its own, sent on a raw socket where fetch cannot) answers 405 with Allow after the key (401 without it), never 2xx; HEAD is 405 or the GET without content; an OPTIONS preflight needs no key",
  needs: ['uniformErrors'],
  async run(context) {
    const { send } = context;
    const tokensSent = new Set<string>();
    for (const [index, { template, path, get }] of specPaths().entries()) {
      const allowed = (operationsOnPath(template) ?? []).map(({ method }) => method);
      // With an Origin, as a browser sends it: whether the target serves CORS shows on this answer.
      const getAnswer = get ? await send({ method: 'GET', path, headers: { Origin: BROWSER_ORIGIN } }) : undefined;
      // A key whose quota limits the run (patience set) sends each method token once in the run (each
      // is an entry of the evidence catalogue: TRACE is no stand-in for PUT) and then one of each kind
      // per path; a target with room, every token on every path.
      const kinds = new Set<string>();
      const probes = methodProbes(template).filter(({ method, why }) => {
        if (context.patience() === undefined) return true;
        const kind = why.replace(/^[A-Z]+ /, '');
        const fresh = !tokensSent.has(method) || !kinds.has(kind);
        tokensSent.add(method);
        kinds.add(kind);
        return fresh;
      });
      const answered = new Map<string, Exchange>();
      for (const { method, why, respells } of probes) {
        // A method that could change something goes only to a target that allows writes.
        if (!SAFE_METHODS.includes(method.toUpperCase()) && !context.capabilities.includes('writes')) continue;
        const what = `${method} ${path} (${why})`;
        const request: ContractRequest = { method, path };
        const exchange = await sendOrNothing(send, request);
        if (exchange) answered.set(method, exchange);
        if (method === 'HEAD' && getAnswer) {
          await judgeHead(context, path, get!.operation.operationId, exchange, getAnswer);
          continue;
        }
        if (method === 'OPTIONS') continue; // a plain OPTIONS may be 405 or 2xx; its preflight is judged below
        if (!exchange || parserRefusal(exchange)) {
          reportRule(
            context,
            'undefined_methods_refused',
            `${what} was refused by the HTTP parser`,
            [
              `Received: ${exchange ? `a bare ${exchange.status}` : 'a closed connection'} / Expected: 405 with Allow: ${allowed.join(', ')} (a parser's refusal is allowed, as a warning)`,
            ],
            exchange,
            { warning: true },
          );
          continue;
        }
        if (respells && exchange.status !== 405) {
          // The spec: the HTTP layer "may read a method token in another letter case as the method that
          // token spells in upper case" (gunicorn does, before any application code runs).
          reportRule(
            context,
            'method_case_kept',
            `${what} was answered as ${respells}`,
            [`Received: ${exchange.status} / Could be: 405 with Allow (RFC 9110 §9.1: a method is case-sensitive)`],
            exchange,
          );
          continue;
        }
        await underRule('undefined_methods_refused', () => expectStatus(exchange, [405], what));
        // A HEAD answer has no content (RFC 9110 §9.3.2): a 405 to it is judged by its status and Allow.
        if (method !== 'HEAD') expectErrorBody(exchange, 'method_not_allowed', what);
        // Authentication comes first: without a key, the same method is a 401 (only on the first path: it costs quota).
        if (index === 0) {
          const anonymous = await sendOrNothing(send, { ...request, auth: 'none' });
          if (anonymous && !parserRefusal(anonymous)) expectStatus(anonymous, [401], `${what} without a key`);
        }
      }
      judgeAllowed(context, path, [getAnswer, ...answered.values()], answered);
      if (getAnswer) await judgeMethodOverride(context, path, getAnswer);
      const preflight = await sendOrNothing(send, {
        method: 'OPTIONS',
        path,
        auth: 'none',
        // What a browser asks before a keyed JSON request: the key's header and the body's type.
        headers: {
          Origin: BROWSER_ORIGIN,
          'Access-Control-Request-Method': allowed.at(-1) ?? 'GET',
          'Access-Control-Request-Headers': 'authorization,content-type',
        },
      });
      // A target that serves CORS (on the preflight or on the path's GET) must let the preflight through;
      // one that serves none leaves CORS to its gateway (spec/.spectral.yaml).
      const servesCors = [preflight, getAnswer].some(
        (answer) => answer !== undefined && headerOf(answer, 'access-control-allow-origin') !== undefined,
      );
      if (preflight && servesCors && (preflight.status < 200 || preflight.status > 299 || preflight.text !== ''))
        reportRule(
          context,
          'preflight_needs_no_key',
          `The CORS preflight of ${path} is refused`,
          [
            `Received: ${preflight.status} with ${preflight.text.length} characters of content to OPTIONS with Origin and Access-Control-Request-Method, no key / Expected: 2xx without content`,
          ],
          preflight,
        );
    }
  },
};

/**
 * The key in every syntax the bearer scheme does not allow: refused with 401 (either code), never
 * admitted with a token other than the one sent. A tab or a colon that leaves the token byte for byte
 * the key may be recovered (RFC 9110 §2.4): the model's `credentials_read_strictly` notes it.
 */
export const malformedCredentialsRefused: Check = {
  name: 'malformed_credentials_refused',
  verifies:
    'every read with the real key in a syntax RFC 6750 §2.1 does not allow (comma lists, auth-params, quotes, a second token, U+00A0) answers 401 with missing_api_key or invalid_api_key, never 2xx; a tab or a colon that leaves the token the key may be admitted (RFC 9110 §2.4, a note); two Authorization fields admitted is a warning (RFC 9110 §5.3 binds the sender)',
  needs: ['realAuth'],
  async run({ send, patience }) {
    const safe = operationModels().filter((model) => model.safe);
    // Every syntax on every read; where the key's quota limits the run, every syntax on one read.
    const reads = patience() === undefined ? safe : safe.slice(0, 1);
    for (const { what, auth, repeatedField } of malformedCredentials())
      for (const model of reads) {
        const request = exampleRequest(model, { auth });
        const context = `${request.method} ${request.path} with ${what}`;
        const exchange = await sendOrNothing(send, request);
        if (!exchange) continue; // a refusal at the parser is a refusal
        if (parserRefusal(exchange)) continue;
        // The model's rules judge an admitted one: a warning where the sender broke RFC 9110 §5.3 or the
        // token is the key byte for byte (RFC 9110 §2.4), a failure otherwise.
        if (exchange.status < 300 && (repeatedField || recoversBearerToken(auth.spell('k')))) continue;
        expectStatus(exchange, [401], context);
        expectErrorBody(exchange, KEY_REFUSED, context);
      }
  },
};
