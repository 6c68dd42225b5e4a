// `npm run build` (and `prepack`): the package's dist/, bundles first, then the type declarations.
// `--only petstore-fake` rebuilds that one bin (what `npm start` runs) in a fraction of a second.
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BIN_ENTRIES, buildBins, buildBundles, DIST, REPO_ROOT } from './build/bundles.js';

const onlyAt = process.argv.indexOf('--only');
if (onlyAt !== -1) {
  const name = process.argv[onlyAt + 1];
  if (!name || !(name in BIN_ENTRIES)) {
    process.stderr.write(`build: --only takes one of ${Object.keys(BIN_ENTRIES).join(', ')}\n`);
    process.exit(2);
  }
  await buildBins([name as keyof typeof BIN_ENTRIES]);
} else {
  const started = performance.now();
  await buildBundles();
  // tsc writes the declarations of the entries and of what they reference; the spec's generated types
  // are a .d.ts already, which tsc does not copy.
  execFileSync(
    process.execPath,
    [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(REPO_ROOT, 'tsconfig.build.json')],
    { stdio: 'inherit' },
  );
  await mkdir(join(DIST, 'types', 'spec'), { recursive: true });
  await copyFile(join(REPO_ROOT, 'spec', 'openapi.d.ts'), join(DIST, 'types', 'spec', 'openapi.d.ts'));
  // `petstore-harness/types` holds types only; its module is empty, so that a resolver that looks for
  // code (a bundler, Jest) finds some and nothing runs.
  await writeFile(join(DIST, 'api-types.js'), 'export {};\n');
  process.stdout.write(`dist/ built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
