// Bundles the standalone fake (scripts/fake-server.ts) into one ES module, dist/fake-server.mjs, which
// `npm start` runs. One file parsed once starts in a fraction of the time Node takes to resolve and
// load the hundreds of modules behind msw, @msw/data and ajv (see BENCHMARKS.md). The spec is not
// inlined: the bundle reads spec/openapi.yaml when it starts, so an edit to the spec needs no rebuild.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

/** Where `npm start` finds the bundle. */
export const SERVER_BUNDLE = fileURLToPath(new URL('../dist/fake-server.mjs', import.meta.url));

/**
 * Writes dist/fake-server.mjs.
 * @example await buildServerBundle();
 */
export async function buildServerBundle(): Promise<void> {
  await build({
    entryPoints: [fileURLToPath(new URL('./fake-server.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: SERVER_BUNDLE,
    logLevel: 'warning',
    // CommonJS dependencies (ajv, commander) call require(); an ES module has none of its own.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildServerBundle();
