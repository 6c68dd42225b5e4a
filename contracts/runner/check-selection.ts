import type { Check } from '../checks/check.js';

/**
 * A check name or a glob of names: `*` any run of characters, `?` one. Check names are snake_case
 * words, so these two wildcards are the whole of the glob language a user needs here (a glob library
 * would add paths, braces and classes that no check name can use).
 */
function matcher(pattern: string): RegExp {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`);
}

/** The checks a run keeps, or the patterns that matched no check (a typo must not pass as "nothing failed"). */
export type CheckSelection = { checks: Check[] } | { unmatched: string[] };

/**
 * The checks `--checks` (names or globs; default: every one) keeps, less those `--skip-checks` names,
 * in the registry's order.
 * @example selectChecks(CHECKS, { only: ['rate_limit_*'], skip: ['rate_limit_promises_kept'] })
 */
export function selectChecks(
  all: readonly Check[],
  { only, skip = [] }: { only?: readonly string[]; skip?: readonly string[] },
): CheckSelection {
  const unmatched = [...(only ?? []), ...skip].filter(
    (pattern) => !all.some(({ name }) => matcher(pattern).test(name)),
  );
  if (unmatched.length > 0) return { unmatched };
  const kept = (name: string) =>
    (only === undefined || only.some((pattern) => matcher(pattern).test(name))) &&
    !skip.some((pattern) => matcher(pattern).test(name));
  return { checks: all.filter(({ name }) => kept(name)) };
}
