/**
 * A configuration the fake refuses to start with. The message names the file and the entry.
 * @example throw new ConfigError('keys.json', '[2].plan', 'unknown plan "gold"');
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  constructor(
    readonly source: string,
    readonly entry: string,
    readonly problem: string,
  ) {
    super(`[petstore-fake] ${source}: ${entry ? `${entry}: ` : ''}${problem}`);
  }
}

/** Type guard for {@link ConfigError}. */
export function isConfigError(error: unknown): error is ConfigError {
  return error instanceof ConfigError;
}
