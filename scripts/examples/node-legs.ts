import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

// The Node and msw versions the guides are followed on. msw 3 needs Node >= 22.12, so npm picks msw 3 on
// Node 22 and 24 and msw 2 on Node 20 from the guides' one range (`msw@^2.15.0 || ^3.0.0`: npm prefers the
// newest version whose `engines` the running Node meets). After a guide is followed, its installed msw is
// checked against the leg's, so a guide that pinned one major fails the other leg instead of passing on it.

/** One leg of the matrix: a Node major, and the msw major a fresh install gets on it. */
export interface Leg {
  name: string;
  node: number;
  msw: number;
}

export const LEGS = {
  node22: { name: 'node22 msw3', node: 22, msw: 3 },
  node24: { name: 'node24 msw3', node: 24, msw: 3 },
  node20: { name: 'node20 msw2', node: 20, msw: 2 },
} as const satisfies Record<string, Leg>;

/**
 * The folder holding `node` of that major: this process's own, or the npm registry's `node` package
 * (`npx -y node@22`, kept in npm's cache after the first time).
 */
export async function nodeBinFolder(major: number): Promise<string> {
  if (Number(process.versions.node.split('.')[0]) === major) return dirname(process.execPath);
  const { stdout } = await run('npx', ['-y', `node@${major}`, '-p', 'process.execPath'], {
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  return dirname(stdout.trim());
}

/**
 * The environment of a newcomer's shell on that Node: `node` of that folder first on PATH (npm and npx
 * then run on it too), nothing of this repository's npm run (its `npm_*` variables, its node_modules/.bin),
 * and npm told to use its cache first and to skip the audit and funding notes (not the guide's text).
 */
export function newcomerEnv(nodeFolder: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) if (!/^npm_/i.test(name) && name !== 'INIT_CWD') env[name] = value;
  const path = (base.PATH ?? '').split(delimiter).filter((entry) => !/node_modules[\\/]\.bin/.test(entry));
  return {
    ...env,
    PATH: [nodeFolder, ...path].join(delimiter),
    npm_config_cache: base.npm_config_cache ?? join(process.env.HOME ?? '/root', '.npm'),
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    FORCE_COLOR: '0',
    NO_COLOR: '1',
  };
}

/** The major version of msw a project folder installed, or undefined when it has none. */
export async function installedMswMajor(dir: string): Promise<number | undefined> {
  const manifest = await readFile(join(dir, 'node_modules', 'msw', 'package.json'), 'utf8').catch(() => undefined);
  return manifest ? Number((JSON.parse(manifest) as { version: string }).version.split('.')[0]) : undefined;
}
