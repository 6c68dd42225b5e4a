import type { Access } from '../domain/access.js';
import { bearerToken } from '../domain/auth.js';
import { apiError } from '../domain/errors.js';
import type { FaultOutcome, FaultSubject, FiredFault } from '../domain/faults.js';
import type { Plan as KeyPlan } from '../domain/plans.js';
import { preferredFaults } from '../domain/prefer.js';
import { errorAnswer, type Answer, type ApiCall } from './api-call.js';
import type { FakeContext } from './context.js';
import type { Target } from './operation.js';
import { runOverrides } from './overrides.js';
import { guardHeaders, HARDENING_HEADERS } from './responses.js';
import { normalizedPath } from '../../spec/path-normalization.js';

/** What the stages learn about one request, for the journal. */
export interface Trace {
  keyPlan?: KeyPlan;
  fault?: string;
}

/**
 * The guard stages of the pipeline, in the order of docs/explanation/design.md section 5: latency,
 * `beforeAuth` fault rules (consuming nothing), `beforeAuth` overrides, auth and quota, the request's
 * `Prefer` faults, the first matching rule, overrides, then the operation (validation, the record step,
 * its answer) under the rate-limit headers. A denied request never reaches a fault, an override or the
 * operation's record step. One way for every request: the store takes admission, the rule and the step
 * together when nothing comes between them (one Redis round trip). `route` routes a call an override changed.
 */
export async function answerGuarded(
  context: FakeContext,
  route: (call: ApiCall) => Target,
  target: Target,
  call: ApiCall,
  trace: Trace,
): Promise<Answer> {
  const { store, overrides } = context;
  await store.ready();
  const latencyMs = context.latencyMs();
  if (latencyMs > 0) await pause(latencyMs);
  const before = overrides.matching(call.method, target, true);
  const after = overrides.matching(call.method, target, false);
  const subject = subjectOf(call);
  const early = await store.faults.take(subject, 'beforeAuth');
  const earlyAnswer = early && (await deliver(early, { ...HARDENING_HEADERS }, trace));
  if (earlyAnswer) return earlyAnswer;
  if (before.length === 0) return answerAdmitted(context, target, call, subject, after, route, trace);
  return runOverrides(overrides, before, call, {}, (admitted) =>
    admitted === call
      ? answerAdmitted(context, target, call, subject, after, route, trace)
      : answerAdmitted(context, route(admitted), admitted, subjectOf(admitted), after, route, trace),
  );
}

/** From auth and quota on: the stages after the `beforeAuth` ones. */
async function answerAdmitted(
  context: FakeContext,
  target: Target,
  call: ApiCall,
  subject: FaultSubject,
  after: ReturnType<FakeContext['overrides']['matching']>,
  route: (call: ApiCall) => Target,
  trace: Trace,
): Promise<Answer> {
  const { store } = context;
  const preferred = preferredFaults(call.header('prefer'));
  const outcomes = preferred.ok ? preferred.outcomes : [];
  // Most plans are known at once: no await for them (a hot path).
  const planned = target.plan(call);
  const plan = planned instanceof Promise ? await planned : planned;
  const request = {
    authorization: call.header('authorization'),
    clientAddress: call.clientAddress,
    subject,
    // The step goes with admission only when nothing may come between them.
    step: preferred.ok && outcomes.length === 0 && after.length === 0 ? plan.step : undefined,
    takeRule: preferred.ok && !outcomes.some(endsTheRequest),
  };
  let admission = await store.admit(request);
  while ('early' in admission) {
    const answer = await deliver(admission.early, { ...HARDENING_HEADERS }, trace);
    if (answer) return answer;
    admission = await store.admit(request);
  }
  const { headers, denied } = admittedHeaders(context, target, admission.access, trace);
  if (denied) return denied;
  if (admission.stepTaken) return withHeaders(plan.answer(admission.result), headers);
  // The request earned its headers and consumed its quota: what a fault or an override answers carries them.
  if (!preferred.ok) return errorAnswer(apiError('invalid_request', preferred.message), headers);
  if (preferred.applied.length > 0) headers['Preference-Applied'] = preferred.applied.join(', ');
  const fired: FiredFault[] = outcomes.map((outcome) => ({ id: 'Prefer', outcome }));
  if (admission.fault) fired.push(admission.fault);
  for (const fault of fired) {
    const answer = await deliver(fault, headers, trace);
    if (answer) return answer;
  }
  return runOverrides(context.overrides, after, call, headers, async (changed) => {
    const changedPlan = changed === call ? plan : await route(changed).plan(changed);
    const result = changedPlan.step && (await store.takeStep(changedPlan.step));
    return withHeaders(changedPlan.answer(result), headers);
  });
}

function subjectOf(call: ApiCall): FaultSubject {
  return {
    method: call.method,
    path: normalizedPath(call.path),
    key: bearerToken(call.header('authorization')),
    rulesSeen: undefined,
  };
}

/** The rate-limit and operation headers an admission earned, and the answer when it was refused. */
function admittedHeaders(
  context: FakeContext,
  target: Target,
  access: Access,
  trace: Trace,
): { headers: Record<string, string>; denied?: Answer } {
  if (access.apiKey) trace.keyPlan = access.apiKey.plan;
  const headers = guardHeaders(access.rateLimit, context.clock.now());
  if (target.headers) Object.assign(headers, target.headers);
  if (access.granted) return { headers };
  if (access.challenge) headers['WWW-Authenticate'] = access.challenge;
  if (access.retryAfterSeconds !== undefined) headers['Retry-After'] = String(access.retryAfterSeconds);
  return { headers, denied: errorAnswer(access.error, headers) };
}

/** The operation's answer under the guard headers: the answer's own fill in what the guards did not set. */
function withHeaders(answer: Answer, headers: Record<string, string>): Answer {
  for (const name in answer.headers) if (!(name in headers)) headers[name] = answer.headers[name]!;
  return { ...answer, headers };
}

function endsTheRequest(outcome: FaultOutcome): boolean {
  return !('delayMs' in outcome);
}

/** Carries out one fault: a delay waits and lets the request go on (undefined); the others are the answer. */
async function deliver(
  { id, outcome }: FiredFault,
  headers: Record<string, string>,
  trace: Trace,
): Promise<Answer | undefined> {
  trace.fault = trace.fault === undefined ? id : `${trace.fault}, ${id}`;
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
