import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';
import { parse } from 'yaml';

/**
 * Lets browser code `import document from '.../spec/openapi.yaml'`: the YAML is parsed at build time
 * and inlined as a plain object, so the bundle carries the one spec and never a hand-written copy.
 * (In Node the fake reads the file itself: `spec/document.ts`.)
 * @example await build({ plugins: [openApiYamlPlugin()], ... })
 */
export function openApiYamlPlugin(): Plugin {
  return {
    name: 'openapi-yaml',
    setup(build) {
      build.onLoad({ filter: /\.ya?ml$/ }, async ({ path }) => {
        const document: unknown = parse(await readFile(path, 'utf8'));
        return { contents: `export default ${JSON.stringify(document)};`, loader: 'js', watchFiles: [path] };
      });
    },
  };
}
