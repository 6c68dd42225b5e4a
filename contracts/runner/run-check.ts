import { isCheckFailure, isSkip, type Check } from '../checks/check.js';
import { specValidators } from '../conformance/spec-validators.js';
import { skipReason, type TargetDescriptor } from '../targets/target.js';
import { curlCommand } from '../transport/curl-command.js';
import type { CheckResult } from './check-result.js';
import { EXCLUSIVE_KEY_CHECKS, SHARED_KEY_SKIP } from './shared-key.js';
import { WINDOW_DRIVING_CHECKS, windowRefusal } from './run-cost.js';
import type { PropertyContext, PropertyPhase } from '../checks/property.js';
import { entriesOfCheck } from './evidence-catalogue.js';
import { DEFAULT_MAX_CONCURRENCY, suiteSettings, type SuiteSettings } from './suite-settings.js';
import { TargetSession, type CheckTally } from './target-session.js';
import { shrinkFindingsOf } from './shrink-findings.js';
import { findingLines, findingOfCheck, findingsOfBroken, type CheckFinding } from './check-finding.js';

/** Options of {@link runCheck}. */
export interface RunCheckOptions {
  /** Called as soon as a check has something to say (a wait for Retry-After), not only at its end. */
  onNote?: (message: string) => void;
  /** Seed, runs and request budget; taken by the target's first check. Default: a fresh seed (or env `PETSTORE_CONTRACT_SEED`). */
  settings?: SuiteSettings;
}

// One session per target: its pacer, request count and budget outlive any one check.
const sessions = new WeakMap<TargetDescriptor, TargetSession>();

/** The session of a target, created by its first check. */
export function sessionOf(descriptor: TargetDescriptor, settings?: SuiteSettings): TargetSession {
  let session = sessions.get(descriptor);
  if (!session) {
    const seed = process.env.PETSTORE_CONTRACT_SEED;
    session = new TargetSession(
      descriptor,
      settings ?? suiteSettings({ live: descriptor.paced, ...(seed && { seed: Number(seed) }) }),
    );
    sessions.set(descriptor, session);
  }
  return session;
}

/** What a check's context records of it while it runs: whether it asked how many generated cases to draw. */
interface ContextUse {
  askedForRuns: boolean;
  tally?: CheckTally;
}

function contextFor(
  check: Check,
  descriptor: TargetDescriptor,
  session: TargetSession,
  note: (message: string) => void,
  tally: CheckTally,
  phase: PropertyPhase | undefined,
  use: ContextUse,
): PropertyContext {
  return {
    ...(phase && { phase }),
    capabilities: descriptor.capabilities,
    maxConcurrency: session.settings.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY,
    patience: () => session.patience,
    evidence: () => tally.observed.size + tally.answerKinds.size,
    triedKind: (kind, record) => session.triedKind(`${check.name} ${kind}`, record),
    takeBrokenPromises: () => tally.broken.splice(0),
    requestsSent: () => tally.requests,
    strict: session.settings.strict ?? false,
    report: (broken) => session.report(broken),
    send: session.send,
    connect: session.connect,
    marked: (request) => session.marked(request),
    spec: specValidators(),
    seed: session.settings.seed,
    // A check that asks draws generated cases: none in the evidence phase, and it runs again to repeat.
    get runs() {
      use.askedForRuns = true;
      return phase === 'evidence' ? 0 : session.settings.runs;
    },
    note,
    now: () => session.waiter.now(),
    async wait(seconds, why) {
      note(`${session.waiter.say(seconds)}: ${why}`);
      await session.wait(seconds, why);
    },
    ...(descriptor.plan && { plan: descriptor.plan }),
    ...(session.clock && { clock: session.clock }),
    ...(session.marker !== undefined && { marker: session.marker }),
    ...(descriptor.adminUrl && {
      scenario: {
        reset: () => session.resetTarget(),
        setMinuteRemaining: (remaining: number) => session.setMinuteRemaining(remaining),
        setDayRemaining: (remaining: number) => session.setRemaining({ dayRemaining: remaining }),
      },
    }),
  };
}

/**
 * A result the model failed, with the check's own failure beside its findings when the check also threw
 * one of its own (the model saw a key admitted; the check, a wrong code elsewhere): two defects are two
 * causes, and neither hides the other. The same answer judged twice stays one finding, unless the check
 * names a rule or promise of its own for it: that id is what a variant breaking the rule must see.
 */
function withOwnFailure(
  broken: CheckResult & { findings: CheckFinding[] },
  error: unknown,
  check: Check,
  descriptor: TargetDescriptor,
): CheckResult {
  if (!isCheckFailure(error) || !error.exchange) return broken;
  const curl = curlCommand(error.exchange.request, descriptor.apiKey);
  // One answer judged twice is one finding, unless the check names another rule it broke than the model did.
  const broke = error.broke ?? check.holds;
  if (broken.findings.some((finding) => finding.curl === curl && (broke === undefined || finding.id === broke)))
    return broken;
  const own = findingOfCheck(
    check.name,
    { title: error.title, lines: [...error.lines], curl, status: error.exchange.status },
    error.exchange,
    descriptor.baseUrl,
    broke,
  );
  return {
    ...broken,
    failure: { ...broken.failure!, lines: [...broken.failure!.lines, '', ...findingLines(own)] },
    findings: [...broken.findings, own],
  };
}

/**
 * Runs one check against a target: skipped (with the target's reason) when the target lacks a capability
 * the check needs; otherwise the fake is reset first and any failure becomes a typed result.
 * @example const result = await runCheck(checkNamed('list_categories_conforms'), target.descriptor);
 */
export async function runCheck(
  check: Check,
  descriptor: TargetDescriptor,
  options: RunCheckOptions = {},
): Promise<CheckResult> {
  return (await runCheckInPhase(check, descriptor, options, undefined)).result;
}

/** What one check did in a phase of a run, beyond its result. */
export interface CheckInPhase {
  result: CheckResult;
  /** It draws generated cases: a repetition phase runs it again. */
  repeats: boolean;
  /** The entries of the evidence catalogue it tried (also added to the session's ledger). */
  tried: string[];
}

/** {@link runCheck} in a phase of a run (none: fixed and generated cases at once), with what it tried. */
export async function runCheckInPhase(
  check: Check,
  descriptor: TargetDescriptor,
  options: RunCheckOptions,
  phase: PropertyPhase | undefined,
): Promise<CheckInPhase> {
  const use: ContextUse = { askedForRuns: false };
  const session = sessionOf(descriptor, options.settings);
  const before = new Map(session.model.rulesTried());
  const result = await runCheckWith(check, descriptor, options, phase, use);
  const tried = entriesOfCheck(check.name, result.outcome !== 'skipped', use.tally?.tried ?? [], {
    before,
    after: session.model.rulesTried(),
  });
  session.evidence.add(tried);
  return { result, repeats: use.askedForRuns, tried };
}

async function runCheckWith(
  check: Check,
  descriptor: TargetDescriptor,
  options: RunCheckOptions,
  phase: PropertyPhase | undefined,
  use: ContextUse,
): Promise<CheckResult> {
  const notes: string[] = [];
  const base = { check: check.name, verifies: check.verifies, notes };
  const reason =
    skipReason(check.needs, descriptor) ??
    (options.settings?.sharedKey && EXCLUSIVE_KEY_CHECKS.has(check.name) ? SHARED_KEY_SKIP : undefined);
  if (reason !== undefined) return { ...base, outcome: 'skipped', reason, durationMs: 0, requests: 0, observed: [] };
  const session = sessionOf(descriptor, options.settings);
  // A check that drives the key's window costs the key's whole limit: refused up front when it cannot fit.
  const { maxRequests } = session.settings;
  const refusal =
    descriptor.paced &&
    WINDOW_DRIVING_CHECKS.has(check.name) &&
    session.keyLimit !== undefined &&
    maxRequests !== undefined
      ? windowRefusal(session.keyLimit, session.sent, maxRequests)
      : undefined;
  if (refusal) return { ...base, outcome: 'skipped', reason: refusal, durationMs: 0, requests: 0, observed: [] };
  const note = (message: string) => {
    notes.push(message);
    options.onNote?.(message);
  };
  const tally = session.begin(note, check.name);
  use.tally = tally;
  const started = performance.now();
  const finished = () => ({
    durationMs: Math.round(performance.now() - started),
    requests: tally.requests,
    observed: [...tally.observed].sort(),
    ...(tally.warnings.length > 0 && {
      warnings: tally.warnings.map(
        ({ promise, title, lines, exchange }) =>
          `${promise}: ${title}; ${lines.join('; ')}; ${curlCommand(exchange.request, descriptor.apiKey)}`,
      ),
    }),
  });
  // A promise broken by any exchange of the check fails it first: it is what went wrong earliest.
  const brokenPromise = () => {
    const findings = findingsOfBroken(tally.broken, descriptor.baseUrl, descriptor.apiKey);
    const [first, ...others] = findings;
    if (!first) return undefined;
    // Every distinct finding in full: what the first one is not is what a developer needs next.
    const failure = {
      title: first.count > 1 ? `${first.title} (${first.count} exchanges)` : first.title,
      lines: [...first.lines, ...others.flatMap((other) => ['', ...findingLines(other)])],
      ...(first.curl && { curl: first.curl }),
      ...(first.status !== undefined && { status: first.status }),
    };
    return { ...base, outcome: 'failed' as const, failure, findings, ...finished() };
  };
  try {
    await session.resetTarget();
    await check.run(contextFor(check, descriptor, session, note, tally, phase, use));
    await shrinkFindingsOf(session, tally);
    return brokenPromise() ?? { ...base, outcome: 'passed', ...finished() };
  } catch (error) {
    await shrinkFindingsOf(session, tally);
    const broken = brokenPromise();
    if (broken) return withOwnFailure(broken, error, check, descriptor);
    if (isSkip(error)) {
      return { ...base, outcome: 'skipped', reason: error.message, ...finished() };
    }
    // The check stopped because the target did not answer (checks say so as a failure of their own).
    if (tally.unanswered > 0 && session.settings.allowUpstreamErrors) {
      const title = isCheckFailure(error) ? error.title : error instanceof Error ? error.message : String(error);
      return {
        ...base,
        outcome: 'skipped',
        reason: `not completed: the target did not answer ${tally.unanswered} of its requests (${title}; excused by --allow-upstream-errors)`,
        ...finished(),
      };
    }
    if (isCheckFailure(error)) {
      const curl = error.exchange && curlCommand(error.exchange.request, descriptor.apiKey);
      const sequence = (error.sequence ?? []).map(
        ({ label, exchange }) => `  ${curlCommand(exchange.request, descriptor.apiKey)}  # ${label}`,
      );
      const failure = {
        title: error.title,
        lines: [...error.lines, ...sequence],
        ...(curl && { curl, status: error.exchange!.status }),
      };
      return {
        ...base,
        outcome: 'failed',
        failure,
        findings: [findingOfCheck(check.name, failure, error.exchange, descriptor.baseUrl, error.broke ?? check.holds)],
        ...finished(),
      };
    }
    // Not a verdict on the target's answers (e.g. the connection dropped): still a failure, said plainly.
    const message = error instanceof Error ? error.message : String(error);
    return {
      ...base,
      outcome: 'failed',
      failure: { title: `Check could not complete: ${message}`, lines: [] },
      ...finished(),
    };
  }
}
