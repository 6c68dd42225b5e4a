import type { CheckResult } from '../runner/check-result.js';
import type { SuiteSettings } from '../runner/target-session.js';
import type { TargetDescriptor } from '../targets/target.js';

/** What the jest process tells the CLI, one JSON object per line on file descriptor 3. */
export type SuiteEvent = { type: 'result'; result: CheckResult } | { type: 'note'; check: string; message: string };

/** Environment variables the CLI hands the target to jest with (the key travels in PETSTORE_API_KEY). */
export const TARGET_ENV = 'PETSTORE_CONTRACT_TARGET';
export const SETTINGS_ENV = 'PETSTORE_CONTRACT_SETTINGS';
export const EVENTS_FD_ENV = 'PETSTORE_CONTRACT_EVENTS_FD';
export const API_KEY_ENV = 'PETSTORE_API_KEY';

/** The descriptor without its key, for the environment of the jest process. */
export function publicDescriptor(descriptor: TargetDescriptor): Omit<TargetDescriptor, 'apiKey'> {
  const { apiKey: _secret, ...rest } = descriptor;
  return rest;
}

/**
 * The target the CLI handed over, read back in the jest process.
 * @example const descriptor = descriptorFromEnvironment(process.env);
 */
export function descriptorFromEnvironment(env: NodeJS.ProcessEnv): TargetDescriptor {
  const raw = env[TARGET_ENV];
  if (!raw) throw new Error(`${TARGET_ENV} is not set: this file is run by \`npm run contract\`, not by \`npm test\``);
  return { ...(JSON.parse(raw) as Omit<TargetDescriptor, 'apiKey'>), apiKey: env[API_KEY_ENV] ?? '' };
}

/** The run's seed, runs and request budget, read back in the jest process. */
export function settingsFromEnvironment(env: NodeJS.ProcessEnv): SuiteSettings | undefined {
  const raw = env[SETTINGS_ENV];
  return raw ? (JSON.parse(raw) as SuiteSettings) : undefined;
}
