/** Every named check, in run order, and lookup by name. */
export { CHECKS, checkNamed } from './checks/registry.js';
/** The words every layer shares: what a target can do, its key's plan limits, its clock. */
export { CAPABILITIES, type Capability } from './core/capabilities.js';
export type { PlanLimits } from './core/plan-limits.js';
export type { TargetClock } from './core/target-clock.js';
/** The check signature and the typed verdicts a check can throw. */
export {
  CheckFailure,
  CheckNotApplicable,
  RequestBudgetExhausted,
  isCheckFailure,
  type Check,
  type CheckContext,
  type ContractId,
  type FakeScenario,
} from './checks/check.js';
/** The ids of checks and rules (promises' are beside PROMISES). */
export { CHECK_NAMES, type CheckName } from './core/contract-ids.js';
export { RULES, RULE_NAMES, type RuleName } from './rules/rule-table.js';
/** What a check may send on a connection of its own (`CheckContext.connect`), and what comes back. */
export type { ConnectionOptions, ConnectionOutcome } from './transport/raw-connection.js';
export type { ConnectionAnswer } from './transport/http1-answers.js';
export type { RawRequest } from './transport/request-bytes.js';
/** The protocol equivalences and the order-of-evaluation request defects the checks hold targets to. */
export { EQUIVALENCES, type Equivalence, type Spelling } from './protocol/equivalences.js';
export { DISTINCTIONS, nearMissesOf, type Distinction } from './protocol/distinctions.js';
/** The one model of the spec's promises across exchanges (the suite's and the proxy's), and its promises. */
export { PromiseModel, type PromiseModelOptions, type Ticket } from './model/promise-model.js';
export { PROMISES, PROMISE_NAMES, type PromiseName } from './model/promise-rules.js';
export type { Requirement } from './core/requirement.js';
export type { BrokenPromise, Observation } from './model/broken-promise.js';
export type { CreatedRecord } from './model/record-ledger.js';
export { runMarker, markedBody } from './generate/run-marker.js';
/** Every sentence of the spec's prose and what verifies it. */
export { SENTENCE_KEYS, SENTENCE_TABLE, type SentenceOfTheSpec, type SentenceRow } from './sentences/sentence-table.js';
export { specSentence, specSentences, SpecPhraseError, type SpecSentence } from './sentences/spec-sentences.js';
export { REQUEST_DEFECTS, type RequestDefect } from './checks/evaluation-order-checks.js';
/** Generated cases: a seeded, shrinking property over requests, and the operations read from the spec. */
export { checkProperty, type PropertyOptions } from './checks/property.js';
export { operationModels, type OperationKind, type OperationModel } from './generate/operation-model.js';
/** Runs one check or many against a target and returns typed results. */
export { runCheck, type RunCheckOptions } from './runner/run-check.js';
export { runChecks, type RunChecksOptions } from './runner/run-checks.js';
export { suiteSettings, DEFAULT_MAX_CONCURRENCY, DEFAULT_RUNS, type SuiteSettings } from './runner/suite-settings.js';
export { summarise, type CheckResult, type SuiteSummary } from './runner/check-result.js';
export type { CheckFinding } from './runner/check-finding.js';
/** Registers the registry as jest tests against a target (what `npm test` uses). */
export { describeContractSuite, type ContractSuiteDefinition } from './jest/describe-contract-suite.js';
/** Targets: the fake in-process, Prism spawned, or a live base URL; and why a check is skipped on one. */
export { startFakeTarget, FAKE_CAPABILITIES, type FakeTargetOptions } from './targets/fake-target.js';
export { startPrismTarget, PRISM_CAPABILITIES, PRISM_LACKING } from './targets/prism-target.js';
export { connectUrlTarget, type UrlTargetOptions } from './targets/url-target.js';
export { skipReason, type RunningTarget, type TargetDescriptor, type TargetKind } from './targets/target.js';
export { TargetNotThisApiError, TargetUnreachableError, UsageError, isExitTwoError } from './targets/target-errors.js';
/** Conformance of one response to the spec (status, Content-Type, body, documented headers). */
export { responseViolations, type Violation, type ConformanceOptions } from './conformance/response-conformance.js';
/** What a check sends and receives. */
export type { ContractRequest, Exchange, RequestAuth, SentRequest, WireForm } from './core/exchange.js';
/** The spec as the suite reads it. */
export type {
  SpecDocument,
  DocumentedOperation,
  DocumentedParameter,
  DocumentedResponse,
  DocumentedHeader,
  DocumentedRequestBody,
  JsonSchema,
} from './core/spec-document.js';
/** The spec's validators, compiled once per operation + status + media type. */
export { specValidators, SpecValidators } from './conformance/spec-validators.js';
/** Coverage of the spec's operation x status x header by a run. */
export { coverageOf, coverageItems, type Coverage, type CoverageItem } from './coverage/coverage.js';
/** Reports: terminal lines, summary, coverage and the check x target matrix; JUnit XML; JSON. */
export { checkLine, failureBlock, summaryText } from './report/terminal-report.js';
export { coverageText, matrixText } from './report/matrix-report.js';
export { junitReport } from './report/junit-report.js';
export {
  disagreementsOf,
  jsonReport,
  type ContractReport,
  type Disagreement,
  type SuiteReport,
} from './report/suite-report.js';
/** The command line of `npm run contract`, as a function that resolves with the exit code. */
export { runContractCli, type CliIo } from './cli/run-contract-cli.js';
/** Deliberately broken fakes and the checks that must catch each. */
/** Real traffic: the watching proxy, its judge and reports, HAR files and their replay. */
export { startWatchProxy, type WatchProxyOptions, type RunningWatchProxy } from './watch/watch-proxy.js';
export {
  TrafficJudge,
  MAX_KEPT_VIOLATIONS,
  type TrafficSummary,
  type TrafficViolation,
  type DeprecatedCalls,
} from './watch/traffic-judge.js';
export type { WatchReport } from './watch/watch-report.js';
export type { UpstreamFailure } from './watch/proxy-connection.js';
export type { WaitPastBudget, WaitRecord } from './runner/run-bounds.js';
/** What a run tried of the evidence catalogue against one target (`SuiteReport.evidence`). */
export type { EvidenceSummary } from './runner/evidence-catalogue.js';
export type { EvidenceCount } from './runner/evidence-counts.js';
export type { ExtraHeaders } from './transport/send-request.js';
export type { BaselineEntry, BaselineVerdict, Finding } from './report/baseline.js';
export { UnansweredLog, reachabilityOf, type Reachability, type UnansweredExchange } from './transport/unanswered.js';
export {
  readHar,
  HarRecorder,
  type Har,
  type HarEntry,
  type HarPair,
  type ExchangeTiming,
  type RecordedExchange,
} from './watch/har.js';
export { replayAgainst, type ReplayReport, type ReplayDifference, type ReplayOptions } from './watch/replay.js';
