import { build, type BuildOptions, type Metafile } from 'esbuild';
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { specArtifactsPlugin } from './spec-artifacts-plugin.js';
import { thirdPartyNotices } from './third-party-notices.js';

// What `npm run build` ships in dist/, and how each part is bundled. The fake's code is bundled with
// what it needs at start-up (the spec's validators precompiled, @msw/data and its helpers inlined), so a
// consumer's test file loads a few files instead of the hundreds behind them. Outside the bundles: msw, a
// peer dependency so that the app's handlers and the fake's share one msw, and the package's
// `dependencies` (what the two CLIs run on), installed beside it where `npm audit` sees them.

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DIST = join(REPO_ROOT, 'dist');

/** The package's entry points (package.json `exports`), by output name. */
export const LIBRARY_ENTRIES = {
  index: 'mocks/index.ts',
  node: 'mocks/node/index.ts',
  server: 'mocks/server/index.ts',
} as const;
/** Built again for browsers (no Node built-ins): the host-agnostic core, the service-worker host and Storybook's glue. */
export const BROWSER_ENTRIES = {
  index: 'mocks/index.ts',
  'fake-worker': 'mocks/browser/index.ts',
  storybook: 'mocks/storybook/index.ts',
} as const;
/** The package's `bin`: self-contained bundles, each one file. */
export const BIN_ENTRIES = {
  'petstore-fake': 'scripts/fake-server.ts',
  'petstore-contract': 'scripts/contract.ts',
} as const;
/** The standalone fake's bundle, which `npm start` and the benchmark run. */
export const FAKE_SERVER_BIN = join(DIST, 'bin', 'petstore-fake.js');
/** The contract suite's bin, as `npm pack` ships it (`watch` is one of its commands). */
export const CONTRACT_BIN = join(DIST, 'bin', 'petstore-contract.js');

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const PEER_EXTERNALS = ['msw', 'msw/*'];
// A browser build inlines everything but msw: an app's bundler should not have to digest CommonJS.
const NODE_EXTERNALS = [
  ...PEER_EXTERNALS,
  ...Object.keys(manifest.dependencies).flatMap((name) => [name, `${name}/*`]),
];
// CommonJS code bundled into an ES module (ajv, commander) calls require(); give the module one.
const ESM_REQUIRE =
  "import { createRequire as __petstoreCreateRequire } from 'node:module'; const require = __petstoreCreateRequire(import.meta.url);";

const entryPaths = (entries: Record<string, string>) =>
  Object.fromEntries(Object.entries(entries).map(([name, path]) => [name, join(REPO_ROOT, path)]));

const common: BuildOptions = {
  bundle: true,
  sourcemap: true,
  target: 'node20',
  external: NODE_EXTERNALS,
  plugins: [specArtifactsPlugin()],
  logLevel: 'warning',
  // The licences of bundled packages go to one file (below), not into every bundle.
  legalComments: 'none',
  metafile: true,
};

/** Builds one set of bundles; what they inlined, for the licence notices. */
async function bundle(options: BuildOptions): Promise<Metafile> {
  return (await build({ ...common, ...options })).metafile!;
}

/** The two bins; `npm start` builds only the fake's. */
export async function buildBins(
  names: ReadonlyArray<keyof typeof BIN_ENTRIES> = Object.keys(BIN_ENTRIES) as Array<keyof typeof BIN_ENTRIES>,
): Promise<Metafile> {
  return bundle({
    entryPoints: entryPaths(Object.fromEntries(names.map((name) => [name, BIN_ENTRIES[name]]))),
    platform: 'node',
    format: 'esm',
    outdir: join(DIST, 'bin'),
    banner: { js: `#!/usr/bin/env node\n${ESM_REQUIRE}` },
  });
}

/**
 * Writes every bundle of dist/: ES modules for Node (shared code in chunks), CommonJS copies of the Node
 * entries for Jest's default set-up and other `require` callers, the browser builds, and the bins.
 * @example await buildBundles();
 */
export async function buildBundles(): Promise<void> {
  await rm(DIST, { recursive: true, force: true });
  const metafiles = await Promise.all([
    bundle({
      entryPoints: entryPaths(LIBRARY_ENTRIES),
      platform: 'node',
      format: 'esm',
      splitting: true,
      outdir: DIST,
      chunkNames: 'chunks/[name]-[hash]',
      banner: { js: ESM_REQUIRE },
    }),
    bundle({
      entryPoints: entryPaths(LIBRARY_ENTRIES),
      platform: 'node',
      format: 'cjs',
      outdir: join(DIST, 'cjs'),
      outExtension: { '.js': '.cjs' },
    }),
    bundle({
      entryPoints: entryPaths(BROWSER_ENTRIES),
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      external: PEER_EXTERNALS,
      splitting: true,
      outdir: join(DIST, 'browser'),
      chunkNames: 'chunks/[name]-[hash]',
    }),
    buildBins(),
  ]);
  await writeFile(join(DIST, 'THIRD-PARTY-LICENSES.txt'), await thirdPartyNotices(metafiles, REPO_ROOT));
}
