import { apiError } from '../domain/errors.js';
import { StoreUnavailableError, storeUnavailable } from '../domain/fake-store.js';
import { HARDENING_HEADERS } from './responses.js';
import { errorAnswer, type Answer, type ApiCall } from './api-call.js';
import type { FakeContext } from './context.js';
import { PREFLIGHT_HEADERS, setCorsHeaders } from './cors.js';
import { answerGuarded, type Trace } from './guarded.js';
import type { Journal, OperationId } from './journal.js';
import type { OperationRouter } from './operation.js';
import { runOverrides } from './overrides.js';

/**
 * Stage 1, the CORS preflight: its answer, or undefined when the request is not one. The standalone
 * server answers preflights to its own paths (`/__admin`) with the same.
 */
export function preflightAnswer(method: string, requestedMethod: string | null | undefined): Answer | undefined {
  if (method !== 'OPTIONS' || !requestedMethod) return undefined;
  return { status: 204, headers: { ...PREFLIGHT_HEADERS }, body: undefined };
}

/**
 * A preflight as the `beforeAuth` overrides of every request see it (a user may break preflights too):
 * their `next` is the fake's preflight answer.
 */
async function preflightOverridden(
  context: FakeContext,
  call: ApiCall,
  preflight: Answer,
  onDefect: DefectListener,
): Promise<Answer> {
  try {
    const before = context.overrides.matching(call.method, {}, true);
    return await runOverrides(context.overrides, before, call, {}, () => Promise.resolve(preflight));
  } catch (error) {
    return defectAnswer(call, error, onDefect);
  }
}

/** The fake's own failure: told to the host's log, answered 500 `internal_error` from the catalogue. */
function defectAnswer(call: ApiCall, error: unknown, onDefect: DefectListener): Answer {
  onDefect(call, error);
  const failure = apiError('internal_error', 'The fake failed to answer; see its log.');
  return errorAnswer(failure, { Connection: 'close', ...HARDENING_HEADERS });
}

/** Receives what the pipeline could not answer: the fake's own defect, for the host's log. */
export type DefectListener = (call: ApiCall, error: unknown) => void;

/**
 * The one way through the fake: every host (msw's `setupServer` and `setupWorker`, the standalone
 * `node:http` server) hands each request under the base URL to this function and sends what it answers.
 * The stages, in order (docs/explanation/design.md, "The request pipeline"):
 *
 * 1. CORS preflight: answered at once, no key, no quota (`beforeAuth` overrides of every request see it).
 * 2. (TRACE and TRACK, which only the standalone server can receive, are routed like any method:
 *    auth and quota first, then 404/405, design section 7.)
 * 3. Routing: the operation the method and path name, or the guarded 404/405.
 * 4. The guards and the operation (guarded.ts): latency, `beforeAuth` faults and overrides, auth and
 *    quota, `Prefer` faults, fault rules, overrides, validation, the record step, the answer.
 * 5. Answer headers: CORS on every answer to a request that carries Origin.
 * 6. The journal: what was sent and answered (`fake.requests`).
 *
 * A failure of the store answers 503 `store_unavailable` (nothing changed); any other failure 500
 * `internal_error`, both from the catalogue (errors.ts).
 */
export function createPipeline(
  context: FakeContext,
  router: OperationRouter,
  journal: Journal,
  // The 500's message says "see its log": without a listener, the log is the console's.
  onDefect: DefectListener = (call, error) =>
    console.error(`[petstore-fake] ${call.method} ${call.path} failed:`, error),
): (call: ApiCall) => Promise<Answer> {
  const route = (call: ApiCall) => router.route(call);

  return async (call) => {
    const trace: Trace & { operationId?: OperationId } = {};
    // Reading a header scans the request's: only an OPTIONS can be a preflight.
    let answer =
      call.method === 'OPTIONS'
        ? preflightAnswer(call.method, call.header('access-control-request-method'))
        : undefined;
    if (answer !== undefined && context.overrides.size > 0)
      answer = await preflightOverridden(context, call, answer, onDefect);
    if (answer === undefined) {
      const target = route(call);
      trace.operationId = target.operationId;
      try {
        answer = await answerGuarded(context, route, target, call, trace);
      } catch (error) {
        // Never a wrong answer: a request the shared store could not serve changed nothing (docs/explanation/design.md section 6).
        if (error instanceof StoreUnavailableError)
          answer = errorAnswer(storeUnavailable(), { 'Retry-After': '1', ...HARDENING_HEADERS });
        else answer = defectAnswer(call, error, onDefect);
      }
    }
    // CORS speaks to browsers, and a browser's cross-origin request always carries Origin: an answer to a
    // request without one (a Node test, curl, another service) carries none of it (Fetch standard, CORS protocol).
    if (call.header('origin') !== null) setCorsHeaders(answer.headers);
    journal.record(
      trace.operationId,
      call.method,
      call.path,
      call.query,
      // The body's bytes as the operation read them; a promise already settled for every write.
      call.method === 'GET' || call.method === 'HEAD' ? undefined : call.body(),
      trace.keyPlan,
      answer.dropped ? null : answer.status,
      trace.fault,
      context.clock.now(),
    );
    return answer;
  };
}
