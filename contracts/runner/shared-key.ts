/**
 * Checks that count a key's every request, so another client of the key makes them fail whatever the
 * service does: they drive the window to a 429, or compare Remaining before and after their own
 * requests. With `--shared-key` they are skipped with {@link SHARED_KEY_SKIP}; the model still judges
 * every exchange of the run, for what unseen traffic cannot explain.
 */
export const EXCLUSIVE_KEY_CHECKS: ReadonlySet<string> = new Set([
  'rate_limit_remaining_decreases',
  'rate_limit_promises_kept',
  'every_outcome_charged',
  'uncharged_requests_cost_nothing',
  'rate_limit_exceeded_answer',
  'quota_window_rolls_over',
  'concurrent_clients_serialisable',
]);

/** Why a check of {@link EXCLUSIVE_KEY_CHECKS} is skipped with `--shared-key`. */
export const SHARED_KEY_SKIP =
  'it needs the key to itself, and --shared-key says others use it too (their requests change what it counts)';
