import { CheckNotApplicable, isCheckFailure, type Check, type CheckContext } from '../checks/check.js';
import { specValidators } from '../spec/spec-validators.js';
import { fakeClock, resetFake } from '../targets/fake-admin.js';
import { skipReason, type TargetDescriptor } from '../targets/target.js';
import { curlCommand } from '../transport/curl-command.js';
import { pacedSender } from '../transport/paced-sender.js';
import { sendRequest } from '../transport/send-request.js';
import type { CheckResult } from './check-result.js';

/** Options of {@link runCheck}. */
export interface RunCheckOptions {
  /** Called as soon as a check has something to say (a wait for Retry-After), not only at its end. */
  onNote?: (message: string) => void;
}

type Send = CheckContext['send'];

/** A live target's pacer, shared by its checks; its notes go to whichever check is running. */
interface SharedPacer {
  send: Send;
  noteTo: (message: string) => void;
}

// One per target: the window one check used up is the next one's to wait for.
const pacers = new WeakMap<TargetDescriptor, SharedPacer>();

function senderFor(descriptor: TargetDescriptor, note: (message: string) => void): Send {
  const plainSend: Send = (request) => sendRequest(descriptor.baseUrl, descriptor.apiKey, request);
  if (!descriptor.paced) return plainSend;
  let pacer = pacers.get(descriptor);
  if (!pacer) {
    const shared: SharedPacer = { send: plainSend, noteTo: note };
    shared.send = pacedSender(plainSend, (message) => shared.noteTo(message));
    pacers.set(descriptor, (pacer = shared));
  }
  pacer.noteTo = note;
  return pacer.send;
}

function contextFor(descriptor: TargetDescriptor, notes: string[], onNote?: (message: string) => void): CheckContext {
  const note = (message: string) => {
    notes.push(message);
    onNote?.(message);
  };
  return {
    send: senderFor(descriptor, note),
    spec: specValidators(),
    note,
    ...(descriptor.plan && { plan: descriptor.plan }),
    ...(descriptor.adminUrl && descriptor.capabilities.includes('clock') && { clock: fakeClock(descriptor.adminUrl) }),
  };
}

/**
 * Runs one check against a target: skipped (with the target's reason) when the target lacks a capability
 * the check needs; otherwise the fake is reset first and any failure becomes a typed result.
 * @example const result = await runCheck(checkNamed('list_categories_conforms'), target.descriptor);
 */
export async function runCheck(check: Check, descriptor: TargetDescriptor, options: RunCheckOptions = {}): Promise<CheckResult> {
  const base = { check: check.name, verifies: check.verifies, notes: [] as string[] };
  const reason = skipReason(check.needs, descriptor);
  if (reason !== undefined) return { ...base, outcome: 'skipped', reason, durationMs: 0 };
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    if (descriptor.adminUrl) await resetFake(descriptor.adminUrl);
    await check.run(contextFor(descriptor, base.notes, options.onNote));
    return { ...base, outcome: 'passed', durationMs: elapsed() };
  } catch (error) {
    if (error instanceof CheckNotApplicable || (error instanceof Error && error.name === 'CheckNotApplicable')) {
      return { ...base, outcome: 'skipped', reason: error.message, durationMs: elapsed() };
    }
    if (isCheckFailure(error)) {
      const curl = error.exchange && curlCommand(error.exchange.request, descriptor.apiKey);
      return { ...base, outcome: 'failed', failure: { title: error.title, lines: [...error.lines], ...(curl && { curl }) }, durationMs: elapsed() };
    }
    // Not a verdict on the target's answers (e.g. the connection dropped): still a failure, said plainly.
    const message = error instanceof Error ? error.message : String(error);
    return { ...base, outcome: 'failed', failure: { title: `Check could not complete: ${message}`, lines: [] }, durationMs: elapsed() };
  }
}

/**
 * Runs checks one after another (they share the key's quota, so never in parallel).
 * @example const results = await runChecks(CHECKS, target.descriptor);
 */
export async function runChecks(checks: readonly Check[], descriptor: TargetDescriptor, onResult?: (result: CheckResult) => void): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    const result = await runCheck(check, descriptor);
    onResult?.(result);
    results.push(result);
  }
  return results;
}
