import { startFakeTarget } from '../targets/fake-target.js';
import { startPrismTarget } from '../targets/prism-target.js';
import type { RunningTarget } from '../targets/target.js';
import { connectUrlTarget } from '../targets/url-target.js';
import type { ContractCliOptions } from './cli-options.js';

/**
 * Starts (fake, Prism) or connects to (URL) one target of the command line. `--api-key` and `--allow`
 * only mean something for a URL: the fake and Prism imply what they support.
 * @example const target = await startTargetFor('fake', { allow: [] }, process.env);
 */
export async function startTargetFor(
  target: string,
  options: Pick<ContractCliOptions, 'apiKey' | 'allow' | 'header'>,
  env: NodeJS.ProcessEnv,
): Promise<RunningTarget> {
  if (target === 'fake') return startFakeTarget();
  if (target === 'prism') return startPrismTarget();
  return connectUrlTarget({
    baseUrl: target,
    apiKey: options.apiKey ?? env.PETSTORE_API_KEY,
    allow: options.allow,
    ...(options.header && { extraHeaders: options.header }),
  });
}
