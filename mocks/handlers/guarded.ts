import { bearerToken } from '../domain/auth.js';
import { apiError } from '../domain/errors.js';
import { StoreUnavailableError, storeUnavailable } from '../domain/fake-store.js';
import type { FaultOutcome, FaultSubject } from '../domain/faults.js';
import { preferredFaults } from '../domain/prefer.js';
import { takeStep, type RecordStep, type StepResult } from '../domain/record-step.js';
import { errorAnswer, type Answer, type ApiCall } from './api-call.js';
import type { FakeContext } from './context.js';
import { HARDENING_HEADERS, rateLimitHeaders } from './responses.js';
import { normalizedPath } from '../../spec/path-normalization.js';

/**
 * What an operation makes of a call before the guards run: the record step it needs once the request
 * is admitted (none when it can answer without the store, e.g. a body that fails validation), and how
 * it answers then. Deciding the step first lets a shared store take admission and the step together.
 */
export interface Plan {
  step?: RecordStep;
  /** Runs once the request is admitted, with the step's result. */
  answer(result: unknown): Answer;
}

/**
 * A plan with a record step, typed by the step.
 * @example afterStep({ kind: 'listCategories' }, (categories) => jsonAnswer(categories))
 */
export function afterStep<S extends RecordStep>(step: S, answer: (result: StepResult<S>) => Answer): Plan {
  return { step, answer: answer as (result: unknown) => Answer };
}

/** A plan that needs no record step: its answer is known before admission, and given only after it. */
export function answerWith(answer: Answer): Plan {
  return { answer: () => answer };
}

/** Options of {@link guarded}. */
export interface GuardOptions {
  /** Headers every response of the operation carries, denials included (e.g. deprecation). */
  headers?: Record<string, string>;
}

/** An operation's entry point: one call in, one answer out. */
export type Resolver = (call: ApiCall) => Promise<Answer>;

/**
 * Runs the test controls, auth and quota before an operation, and puts the rate-limit headers on
 * whatever it answers. The order is docs/explanation/design.md section 5's: latency, `beforeAuth` rules (consuming
 * nothing), auth and quota, the request's `Prefer` faults, the first matching rule, the operation.
 * A denied request never reaches a fault or the operation's record step.
 * @example guarded(context, () => afterStep({ kind: 'listOrders' }, (orders) => jsonAnswer(orders)))
 */
export function guarded(
  context: FakeContext,
  planOf: (call: ApiCall) => Plan | Promise<Plan>,
  options: GuardOptions = {},
): Resolver {
  const answer = async (call: ApiCall): Promise<Answer> => {
    const { store } = context;
    await store.ready();
    const latencyMs = context.latencyMs();
    if (latencyMs > 0) await pause(latencyMs);
    const authorization = call.header('authorization');
    const subject: FaultSubject = {
      method: call.method,
      path: normalizedPath(call.path),
      key: bearerToken(authorization),
    };
    const preferred = preferredFaults(call.header('prefer'));
    const planned = planOf(call);
    const plan = planned instanceof Promise ? await planned : planned;
    const step = preferred.ok ? plan.step : undefined;
    // With no fault to deliver, nothing comes between admission and the step: the store takes them together.
    const atOnce =
      preferred.ok && preferred.outcomes.length > 0
        ? undefined
        : await store.admitAtOnce({ authorization, clientAddress: call.clientAddress, subject, step });
    if (!atOnce) {
      const early = await store.faults.take(subject, 'beforeAuth');
      const answer = early && (await deliver(early.outcome, { ...HARDENING_HEADERS }));
      if (answer) return answer;
    }

    const access = atOnce?.access ?? (await store.access.check(authorization, call.clientAddress));
    const headers = { ...rateLimitHeaders(access.rateLimit, context.clock.now()), ...HARDENING_HEADERS };
    if (options.headers) Object.assign(headers, options.headers);
    if (!access.granted) {
      if (access.challenge) headers['WWW-Authenticate'] = access.challenge;
      if (access.retryAfterSeconds !== undefined) headers['Retry-After'] = String(access.retryAfterSeconds);
      return errorAnswer(access.error, headers);
    }

    // The request earned its headers and consumed its quota: what a fault answers carries them.
    if (!preferred.ok) return errorAnswer(apiError('invalid_request', preferred.message), headers);
    if (preferred.applied.length > 0) headers['Preference-Applied'] = preferred.applied.join(', ');
    if (!atOnce) {
      const outcomes = [...preferred.outcomes];
      if (!outcomes.some(endsTheRequest)) {
        const fired = await store.faults.take(subject, 'afterAuth');
        if (fired) outcomes.push(fired.outcome);
      }
      for (const outcome of outcomes) {
        const answer = await deliver(outcome, headers);
        if (answer) return answer;
      }
    }

    const result = atOnce ? atOnce.result : step && (await takeStep(store.records, step));
    const answer = plan.answer(result);
    for (const name in answer.headers) if (!(name in headers)) headers[name] = answer.headers[name]!;
    return { ...answer, headers };
  };
  return async (call) => {
    try {
      return await answer(call);
    } catch (error) {
      // Never a wrong answer: a request the shared store could not serve changed nothing (docs/explanation/design.md section 6).
      if (error instanceof StoreUnavailableError)
        return errorAnswer(storeUnavailable(), { 'Retry-After': '1', ...HARDENING_HEADERS });
      throw error;
    }
  };
}

function endsTheRequest(outcome: FaultOutcome): boolean {
  return !('delayMs' in outcome);
}

/** Carries out one fault: a delay waits and lets the request go on (undefined); the others are the answer. */
async function deliver(outcome: FaultOutcome, headers: Record<string, string>): Promise<Answer | undefined> {
  if ('delayMs' in outcome) {
    await pause(outcome.delayMs);
    return undefined;
  }
  if ('error' in outcome) {
    const withRetry =
      outcome.retryAfterSeconds === undefined
        ? headers
        : { ...headers, 'Retry-After': String(outcome.retryAfterSeconds) };
    return errorAnswer(outcome.error, withRetry);
  }
  if ('network' in outcome) return { status: 0, headers: {}, body: undefined, dropped: true };
  // The operation does not run: the body a client gets is cut short, as by a proxy that gave up.
  return { status: 200, headers, body: undefined, rawBody: MALFORMED_BODY };
}

const MALFORMED_BODY = JSON.stringify({
  fault: 'malformed body',
  note: 'the fake cut this JSON short on purpose',
}).slice(0, -12);

function pause(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
