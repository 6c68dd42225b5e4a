import { CHECKS } from '../checks/registry.js';

/**
 * Checks that count a key's every request, so another client of the key makes them fail whatever the
 * service does: they drive the window to a 429 (`drivesWindow`), or compare Remaining before and after
 * their own requests (`countsEveryRequestOfTheKey`). With `--shared-key` they are skipped with {@link SHARED_KEY_SKIP};
 * the model still judges every exchange of the run, for what unseen traffic cannot explain.
 */
export const EXCLUSIVE_KEY_CHECKS: ReadonlySet<string> = new Set(
  CHECKS.filter((check) => check.drivesWindow || check.countsEveryRequestOfTheKey).map((check) => check.name),
);

/** Why a check of {@link EXCLUSIVE_KEY_CHECKS} is skipped with `--shared-key`. */
export const SHARED_KEY_SKIP =
  'it needs the key to itself, and --shared-key says others use it too (their requests change what it counts)';
