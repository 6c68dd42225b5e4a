import type { Capability } from '../core/capabilities.js';
import { diagnoseTarget } from './target-diagnosis.js';
import { UsageError } from './target-errors.js';
import { closestName } from '../core/closest-name.js';
import type { RunningTarget } from './target.js';

/** What a live target may be asked to permit with `--allow`. */
export const ALLOWABLE: readonly Capability[] = ['writes', 'quota'];

/** A live service is assumed to do what the spec says; only what would disturb it needs permission. */
/** What every live service supports (the rest it must be allowed: {@link ALLOWABLE}). */
export const LIVE_CAPABILITIES: Capability[] = [
  'stateful',
  'realAuth',
  'deprecationHeaders',
  'uniformErrors',
  'bodyLimit',
  'hostChecked',
  'httpEquivalences',
  'exactParameters',
  'closedCors',
];
/** Why a live URL lacks what it lacks: the skip reasons of its checks, and the coverage it cannot give. */
export const LIVE_LACKING: Partial<Record<Capability, string>> = {
  writes: 'not allowed on this target: pass --allow writes to let the suite create categories',
  quota: 'not allowed on this target: pass --allow quota to let the suite drive the key to one 429 (never a ban)',
  clock:
    "a live target's clock cannot be moved, and this needs more than a run can wait: the sunset (2027-07-01) and the day window are months and hours away, and the spec gives the ban no threshold (provoking one would lock the key out); checked against the fake. The minute window's rollover is waited out in real time (quota_window_rolls_over)",
  preferredStatus:
    'a live service has no test control that makes it fail: its declared 500 is checked against the fake and Prism, and any 5xx a request gets here fails the run (no_server_error)',
};

/** Options of {@link connectUrlTarget}. */
export interface UrlTargetOptions {
  baseUrl: string;
  apiKey: string | undefined;
  allow: readonly Capability[];
  /** `--header`: fields every request carries, the diagnosis's too (a gateway may need them). */
  extraHeaders?: ReadonlyArray<readonly [string, string]>;
}

/** The base address a flag names (`--target`, `--upstream`), without a trailing slash; a {@link UsageError} saying why not. */
export function validatedBaseUrl(raw: string, flag = '--target'): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    const near = flag === '--target' && !raw.includes('/') ? closestName(raw, ['fake', 'prism']) : undefined;
    throw new UsageError(
      `${flag} must be ${flag === '--target' ? 'fake, prism or ' : ''}a base URL ending in /v1; got "${raw}"${near ? ` (did you mean ${near}?)` : ''}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${flag} URL must be http or https; got "${raw}"`);
  }
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  if (!base.endsWith('/v1') || url.search !== '' || url.hash !== '') {
    throw new UsageError(
      `${flag} URL must be the base address, ending in /v1 (e.g. https://staging.api.petstore.example.com/v1); got "${raw}"`,
    );
  }
  return base;
}

/**
 * Checks the URL and key, diagnoses the target (what answers, and whether it takes the key), and describes it. Writes and quota checks run only
 * when `allow` names them. Nothing is started, so `close` has nothing to stop.
 * @example await connectUrlTarget({ baseUrl: 'https://staging.api.petstore.example.com/v1', apiKey, allow: ['writes'] })
 */
export async function connectUrlTarget(options: UrlTargetOptions): Promise<RunningTarget> {
  const baseUrl = validatedBaseUrl(options.baseUrl);
  if (!options.apiKey) {
    throw new UsageError(
      `a URL target needs an API key: pass --api-key KEY or set PETSTORE_API_KEY (target ${baseUrl})`,
    );
  }
  const diagnosis = await diagnoseTarget(baseUrl, options.apiKey, options.extraHeaders);
  const allowed = ALLOWABLE.filter((capability) => options.allow.includes(capability));
  return {
    descriptor: {
      kind: 'url',
      label: baseUrl,
      baseUrl,
      apiKey: options.apiKey,
      capabilities: [...LIVE_CAPABILITIES, ...allowed],
      lacking: Object.fromEntries(
        Object.entries(LIVE_LACKING).filter(([capability]) => !allowed.includes(capability as Capability)),
      ),
      paced: true,
      diagnosis,
    },
    close: async () => undefined,
  };
}
