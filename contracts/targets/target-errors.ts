/** The command line or its environment is wrong (exit 2): the message says what and how to fix it. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The target did not answer at all (exit 2): connection refused, DNS failure, timeout. */
export class TargetUnreachableError extends Error {
  override readonly name = 'TargetUnreachableError';
}

/** The target answers, but not as this API does (an HTML page, a redirect), or refuses the key (exit 2). */
export class TargetNotThisApiError extends Error {
  override readonly name = 'TargetNotThisApiError';
}

/** Whether a thrown value means exit 2 rather than a failed check. */
export function isExitTwoError(error: unknown): error is UsageError | TargetUnreachableError | TargetNotThisApiError {
  return (
    error instanceof Error && ['UsageError', 'TargetUnreachableError', 'TargetNotThisApiError'].includes(error.name)
  );
}
