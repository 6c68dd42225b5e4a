import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { relative, sep } from 'node:path';
import type { BuiltAssets } from '../server/static-server.js';
import { specArtifactsPlugin } from '../../scripts/build/spec-artifacts-plugin.js';

/** The page's entry point: plain TypeScript and DOM. */
export const DEMO_ENTRY = fileURLToPath(new URL('../src/main.ts', import.meta.url));
/** Hand-written static files: `index.html` and the committed `mockServiceWorker.js`. */
export const DEMO_PUBLIC_DIR = fileURLToPath(new URL('../public', import.meta.url));

/** Where the built files are served: the page loads `/assets/main.js`. */
const ASSETS_DIR = `${DEMO_PUBLIC_DIR}${sep}assets`;

export interface DemoPageBuildOptions {
  /**
   * The one setting that picks the backend: `'fake'` starts the fake's service worker in the page
   * (API at `/v1` on the page's origin); a base URL ending in `/v1` calls that service instead.
   */
  api?: string;
  /** Another page script to serve as `/assets/main.js` (the browser tests' page). Default {@link DEMO_ENTRY}. */
  entry?: string;
}

/**
 * Bundles the demo page with esbuild, in memory (nothing is written to disk), with the spec's validators
 * compiled at build time as the package's browser entry has them.
 * @example const assets = await buildDemoPage(); assets.get('/assets/main.js')
 */
export async function buildDemoPage(options: DemoPageBuildOptions = {}): Promise<BuiltAssets> {
  const result = await build({
    entryPoints: { main: options.entry ?? DEMO_ENTRY },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outdir: ASSETS_DIR,
    write: false,
    sourcemap: 'linked',
    logLevel: 'silent',
    define: { __PETSTORE_API__: JSON.stringify(options.api ?? 'fake') },
    plugins: [specArtifactsPlugin()],
  });
  const assets = new Map<string, Uint8Array>();
  for (const file of result.outputFiles) {
    const urlPath = `/${relative(DEMO_PUBLIC_DIR, file.path).split(sep).join('/')}`;
    assets.set(urlPath, file.contents);
  }
  return assets;
}
