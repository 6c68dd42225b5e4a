import { startFakeTarget } from '../targets/fake-target.js';
import { startPrismTarget } from '../targets/prism-target.js';
import type { RunningTarget } from '../targets/target.js';
import { connectUrlTarget } from '../targets/url-target.js';
import type { ContractCliOptions } from './cli-options.js';

/**
 * Starts (fake, Prism) or connects to (URL) the target the command line names. `--api-key` and `--allow`
 * only mean something for a URL: the fake and Prism imply what they support.
 * @example const target = await startTargetFor({ target: 'fake', allow: [] }, process.env, console.log);
 */
export async function startTargetFor(options: ContractCliOptions, env: NodeJS.ProcessEnv, note: (line: string) => void): Promise<RunningTarget> {
  if (options.target === 'fake' || options.target === 'prism') {
    if (options.allow.length > 0 || options.apiKey !== undefined) {
      note(`note: --api-key and --allow are for URL targets; ${options.target} implies what it supports`);
    }
    return options.target === 'fake' ? startFakeTarget() : startPrismTarget();
  }
  return connectUrlTarget({ baseUrl: options.target, apiKey: options.apiKey ?? env.PETSTORE_API_KEY, allow: options.allow });
}
