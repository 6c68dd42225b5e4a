import { documentedSpec, type SpecDocument } from '../core/spec-document.js';
import { schemaEvidence, type EvidenceEntry } from '../generate/schema-evidence.js';
import { methodEvidence, STANDARD_METHODS } from '../generate/protocol-requests.js';
import { hazardEvidence } from '../generate/runtime-hazards.js';
import { surroundings } from '../protocol/surroundings.js';
import { FRAMINGS, framingEntry } from '../protocol/grammar-surroundings.js';
import { pathSpellings } from '../protocol/path-spellings.js';
import { RULE_NAMES, RULES, type Rule, type RuleName } from '../rules/rule-table.js';
import { skipReason, type TargetDescriptor } from '../targets/target.js';
import type { CheckResult } from './check-result.js';
import { CHECKS } from '../checks/registry.js';
import { catalogueCounts, type EvidenceCount } from './evidence-counts.js';

export { catalogueCounts, type EvidenceCount } from './evidence-counts.js';

const CHECK_NEEDS = new Map<string, (typeof CHECKS)[number]['needs']>(CHECKS.map((check) => [check.name, check.needs]));

export type { EvidenceEntry } from '../generate/schema-evidence.js';

/** The entries for requests from several clients at once: what a race (two creates, one id) needs to show. */
export const CONCURRENCY_ENTRIES = {
  reads: 'concurrency: reads from several clients at once',
  creates: 'concurrency: creates from several clients at once',
} as const;

/** How a rule of the table is named in the catalogue. */
export const ruleEntry = (rule: RuleName) => `rule ${rule}`;

/** Whose method a token is: the spec's own (in any letter case), HTTP's registry (RFC 9110, PATCH), or the suite's list of extensions. */
function methodSource(method: string, spec: SpecDocument): NonNullable<EvidenceEntry['source']> {
  const token = method.slice('method '.length);
  if (Object.values(spec.operations).some((operation) => operation.method === token.toUpperCase())) return 'spec';
  return STANDARD_METHODS.includes(token.toUpperCase()) ? 'grammar' : 'listed';
}

/**
 * The framings of RFC 9112 §6.3 a check tries on a connection of its own (not through the run's sender):
 * tried when that check ran to its end, as a rule is by the check the table names for it.
 */
const FRAMINGS_TRIED_BY = new Map<string, string>(
  FRAMINGS.flatMap((framing) => ('triedBy' in framing ? [[framingEntry(framing.framing), framing.triedBy]] : [])),
);

/**
 * What every run must try on every target, derived from the spec, HTTP's grammar and the rule table
 * before the first request: each keyword and class of value of each schema a request carries, each rule
 * of the table, bursts of reads and creates from several clients, each method token a path may be sent,
 * each element around a request (the spec's names where it does not declare them, HTTP's request fields
 * and forms, listed tempting values), each other spelling of a spec path, each framing of a body, and
 * each runtime hazard of a body. Each entry says its axis and its source. Target-independent: a fake and
 * a URL aim at the same list, and a target that cannot take an entry (no writes allowed) says which and why.
 * @example evidenceCatalogue().length
 */
export function evidenceCatalogue(spec: SpecDocument = documentedSpec()): EvidenceEntry[] {
  const elements = surroundings(spec);
  const entries: EvidenceEntry[] = [
    ...schemaEvidence(spec).map((entry): EvidenceEntry => ({ ...entry, axis: entry.kind, source: 'spec' })),
    ...RULE_NAMES.map((rule): EvidenceEntry => ({
      id: ruleEntry(rule),
      kind: 'rule',
      needs: (RULES[rule] as Rule).needs ?? [],
      axis: 'rule',
      source: 'listed',
    })),
    { id: CONCURRENCY_ENTRIES.reads, kind: 'concurrency', needs: ['stateful'], axis: 'concurrency', source: 'listed' },
    {
      id: CONCURRENCY_ENTRIES.creates,
      kind: 'concurrency',
      needs: ['stateful', 'writes'],
      axis: 'concurrency',
      source: 'listed',
    },
    ...methodEvidence(spec).map((entry): EvidenceEntry => ({
      ...entry,
      axis: 'method',
      source: methodSource(entry.id, spec),
    })),
    ...elements.map(({ id, withBody, axis, source }): EvidenceEntry => ({
      id,
      kind: 'surrounding',
      needs: withBody ? ['writes'] : [],
      axis,
      source,
    })),
    // A near miss is judged by near_miss_paths_not_found, which compares Error codes (uniformErrors).
    ...pathSpellings(spec).map(({ id, either }): EvidenceEntry => ({
      id,
      kind: 'surrounding',
      needs: either ? [] : ['uniformErrors'],
      axis: 'path',
      source: 'spec',
    })),
    ...FRAMINGS.map(({ framing }): EvidenceEntry => {
      const triedBy = FRAMINGS_TRIED_BY.get(framingEntry(framing));
      return {
        id: framingEntry(framing),
        kind: 'surrounding',
        needs: triedBy ? (CHECK_NEEDS.get(triedBy) ?? ['writes']) : ['writes'],
        axis: 'framing',
        source: 'grammar',
      };
    }),
    ...Object.values(spec.operations).flatMap(({ operationId, requestBody }) => {
      const schema = requestBody?.content['application/json'];
      return schema
        ? hazardEvidence(schema, operationId).map((entry): EvidenceEntry => ({
            ...entry,
            axis: 'hazard',
            source: 'listed',
          }))
        : [];
    }),
  ];
  return entries.filter((entry, index) => entries.findIndex(({ id }) => id === entry.id) === index);
}

/** The order a budgeted run takes: checks that try the catalogue first, then those that only repeat it. */
export interface EvidencePlan {
  /** The checks whose fixed cases, together, try every entry the rehearsal reached, for the fewest requests. */
  evidence: ReadonlySet<string>;
  /** Every check's name in the order the run takes: the evidence checks, those reaching more documented answers, the rest. */
  order: readonly string[];
  /** How many checks outside the evidence set reach documented answers it does not (they come right after it). */
  newAnswers: number;
  /** Requests the evidence checks took in the rehearsal (the target's own answers may ask for more). */
  requests: number;
  /** Entries the rehearsal reached. */
  entries: number;
  /** For each entry the rehearsal reached, the checks whose requests tried it there. */
  triedBy: ReadonlyMap<string, readonly string[]>;
  /** What each check's fixed cases cost in the rehearsal, in the run's order: what the run's first minutes will spend and create. */
  rehearsal?: ReadonlyArray<{ check: string; requests: number; records: number }>;
}

/** What a run tried of the catalogue against one target: the report's evidence lines and the JSON report's `evidence`. */
export interface EvidenceSummary {
  /** Entries in the catalogue. */
  catalogue: number;
  /** Every entry tried, in the catalogue's order. */
  tried: string[];
  /** Entries the target cannot take (it lacks what they need), each with the target's reason. */
  notApplicable: Array<{ entry: string; why: string }>;
  /** Entries the target could take that the run did not try, each with why: a gap in the run's evidence. */
  notTried: Array<{ entry: string; why: string }>;
  /** Whether every entry the target can take was tried. */
  complete: boolean;
  /** Entries in the catalogue and tried, by axis (`keyword`, `rule`, `method`, `header`, `query`, `path`, `framing`, ...). */
  byAxis: Record<string, EvidenceCount>;
  /** Entries in the catalogue and tried, by source: the spec, HTTP's grammar and registries, a list the suite keeps. */
  bySource: Record<string, EvidenceCount>;
}

/** Why no check put a rule to the test: the skip reasons of the checks the table names for it, or that none ran. */
function whyRuleNotTried(rule: RuleName, results: readonly CheckResult[]): string {
  const named = RULES[rule].checks.flatMap((name) => results.filter((result) => result.check === name));
  if (named.length === 0) return `no answer applied it and its checks were not run: ${RULES[rule].checks.join(', ')}`;
  return `no answer applied it and its checks were skipped: ${named.map((result) => `${result.check} (${result.reason ?? result.outcome})`).join('; ')}`;
}

/**
 * The entries one check tried: those its requests tried (read from the requests), each rule the model
 * applied to one of its answers, and, when it ran to its end, each rule the table names it for (a rule
 * about a header the target never sends is put to the test by the check that looks for it).
 */
export function entriesOfCheck(
  check: string,
  ranToItsEnd: boolean,
  requestEntries: Iterable<string>,
  applied: { before: ReadonlyMap<RuleName, number>; after: ReadonlyMap<RuleName, number> },
): string[] {
  const rules = RULE_NAMES.filter(
    (rule) =>
      (applied.after.get(rule) ?? 0) > (applied.before.get(rule) ?? 0) ||
      (ranToItsEnd && (RULES[rule].checks as readonly string[]).includes(check)),
  );
  const framings = ranToItsEnd ? [...FRAMINGS_TRIED_BY].filter(([, by]) => by === check).map(([entry]) => entry) : [];
  return [...requestEntries, ...rules.map(ruleEntry), ...framings];
}

/** What the run tried of the catalogue, from the entries its checks tried ({@link entriesOfCheck}). */
export function evidenceSummary(options: {
  catalogue: readonly EvidenceEntry[];
  tried: ReadonlySet<string>;
  results: readonly CheckResult[];
  descriptor: Pick<TargetDescriptor, 'capabilities' | 'lacking'>;
  /** `--operations`: entries of other operations are not for this run. */
  operations?: ReadonlySet<string>;
  /** From a budgeted run's rehearsal: the checks whose requests tried each entry (to tell a target's lack from a gap). */
  triedBy?: ReadonlyMap<string, readonly string[]>;
}): EvidenceSummary {
  const { catalogue, tried, results, descriptor, operations, triedBy } = options;
  const summary: EvidenceSummary = {
    catalogue: catalogue.length,
    tried: [],
    notApplicable: [],
    notTried: [],
    complete: true,
    ...catalogueCounts(catalogue, tried),
  };
  for (const entry of catalogue) {
    const rule = entry.kind === 'rule' ? (entry.id.slice('rule '.length) as RuleName) : undefined;
    if (tried.has(entry.id)) {
      summary.tried.push(entry.id);
      continue;
    }
    const lacking =
      entry.operationId !== undefined && operations && !operations.has(entry.operationId)
        ? `${entry.operationId} is outside --operations`
        : (skipReason(entry.needs, descriptor) ??
          targetLacks(rule ? RULES[rule].checks : triedBy?.get(entry.id), results, descriptor));
    if (lacking !== undefined) {
      summary.notApplicable.push({ entry: entry.id, why: lacking });
      continue;
    }
    const why = rule ? whyRuleNotTried(rule, results) : `no request of the run tried it${leftOutChecks(results)}`;
    summary.notTried.push({ entry: entry.id, why });
  }
  summary.complete = summary.notTried.length === 0;
  return summary;
}

/** The target's reason when every check that tries an entry is skipped for what the target lacks. */
function targetLacks(
  checks: readonly string[] | undefined,
  results: readonly CheckResult[],
  descriptor: Pick<TargetDescriptor, 'capabilities' | 'lacking'>,
): string | undefined {
  if (!checks || checks.length === 0) return undefined;
  const reasons = checks.map((name) => {
    const result = results.find((candidate) => candidate.check === name);
    const needs = CHECK_NEEDS.get(name);
    const lacking = needs && skipReason(needs, descriptor);
    return result?.outcome === 'skipped' && lacking !== undefined && result.reason === lacking ? lacking : undefined;
  });
  return reasons.every((reason) => reason !== undefined) ? reasons[0] : undefined;
}

function leftOutChecks(results: readonly CheckResult[]): string {
  const skipped = results.filter((result) => result.outcome === 'skipped').map((result) => result.check);
  return skipped.length > 0 ? ` (skipped checks: ${skipped.join(', ')})` : '';
}

/** The summary's lines, as the terminal report prints them after a run: loud when the evidence is incomplete. */
export function evidenceText(summary: EvidenceSummary, label: string): string[] {
  const counts = `${summary.tried.length} of ${summary.catalogue} entries of the evidence catalogue tried against ${label}`;
  const notApplicable =
    summary.notApplicable.length > 0 ? `; ${summary.notApplicable.length} the target cannot take` : '';
  const counted = (counts: Record<string, EvidenceCount>) =>
    Object.entries(counts)
      .map(([name, { catalogue, tried }]) => `${name} ${tried}/${catalogue}`)
      .join(', ');
  const split = `  by axis: ${counted(summary.byAxis)}; by source: ${counted(summary.bySource)}`;
  if (summary.complete)
    return [
      `Evidence: ${counts}${notApplicable}: every entry it can take`,
      split,
      ...byReason(summary.notApplicable).map(
        ([why, entries]) => `  not applicable (${why}): ${entries.length} entries`,
      ),
    ];
  return [
    `INCOMPLETE EVIDENCE: ${counts}${notApplicable}; ${summary.notTried.length} not tried. The run is not a full verdict: what is below was never put to the test`,
    split,
    ...summary.notTried.map(({ entry, why }) => `  not tried: ${entry}: ${why}`),
    ...byReason(summary.notApplicable).map(([why, entries]) => `  not applicable (${why}): ${entries.length} entries`),
  ];
}

function byReason(entries: ReadonlyArray<{ entry: string; why: string }>): Array<[string, string[]]> {
  const grouped = new Map<string, string[]>();
  for (const { entry, why } of entries) grouped.set(why, [...(grouped.get(why) ?? []), entry]);
  return [...grouped];
}

/**
 * Whether targets of one run were held to the same evidence: one line when their `tried` lists are
 * identical, else each entry tried on some targets and not on others, with where.
 * @example evidenceAgreementText([{ label: 'fake', evidence: fakeSummary }, { label: 'staging', evidence: stagingSummary }])
 */
export function evidenceAgreementText(targets: ReadonlyArray<{ label: string; evidence: EvidenceSummary }>): string[] {
  const all = [...new Set(targets.flatMap(({ evidence }) => evidence.tried))];
  const differing = all.filter((entry) => !targets.every(({ evidence }) => evidence.tried.includes(entry)));
  if (differing.length === 0)
    return [`Evidence alike: the same ${all.length} entries of the catalogue tried on every target`];
  return [
    `Evidence differs: ${differing.length} entries tried on some targets only`,
    ...differing.map(
      (entry) =>
        `  ${entry}: tried on ${targets
          .filter(({ evidence }) => evidence.tried.includes(entry))
          .map(({ label }) => label)
          .join(', ')}; not on ${targets
          .filter(({ evidence }) => !evidence.tried.includes(entry))
          .map(({ label }) => label)
          .join(', ')}`,
    ),
  ];
}
