import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import { SchemaRegistry } from '../../spec/schema-registry.js';
import { SPEC_PATH, specDocument } from '../../spec/spec-artifacts.js';

const NAMESPACE = 'petstore-spec';
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Replaces `spec/spec-artifacts.ts` in a bundle with what it would compute at start-up: the parsed
 * document inlined as JSON and the component validators as code ajv generated now (standalone mode).
 * A bundle then starts without a YAML parser or a schema compiler, in Node and in the browser alike.
 * @example await build({ plugins: [specArtifactsPlugin()], ... })
 */
export function specArtifactsPlugin(): Plugin {
  return {
    name: 'spec-artifacts',
    setup(build) {
      const { format, platform, outdir, outfile } = build.initialOptions;
      build.onResolve({ filter: /\/spec-artifacts(\.js|\.ts)?$/ }, () => ({
        path: 'spec-artifacts',
        namespace: NAMESPACE,
      }));
      build.onResolve({ filter: /^petstore-spec:validators$/ }, () => ({ path: 'validators', namespace: NAMESPACE }));
      build.onLoad({ filter: /^spec-artifacts$/, namespace: NAMESPACE }, () => {
        const outputDir = resolve(outdir ?? dirname(outfile ?? '.'));
        return {
          contents: artifactsModule(platform === 'browser' ? undefined : relative(outputDir, SPEC_PATH), format),
          loader: 'js',
          resolveDir: REPO_ROOT,
          watchFiles: [SPEC_PATH],
        };
      });
      build.onLoad({ filter: /^validators$/, namespace: NAMESPACE }, () => ({
        contents: new SchemaRegistry(specDocument(), { standalone: true }).standaloneModule(),
        loader: 'js',
        // The generated code requires ajv's runtime helpers and ajv-formats' formats from here.
        resolveDir: REPO_ROOT,
      }));
    },
  };
}

/** The module's source; `specPathFromOutput` is the spec file relative to the bundle (Node only). */
function artifactsModule(specPathFromOutput: string | undefined, format: string | undefined): string {
  const specPath =
    specPathFromOutput === undefined
      ? ''
      : format === 'cjs'
        ? `export const SPEC_PATH = require('node:path').join(__dirname, ${JSON.stringify(specPathFromOutput)});`
        : `import { fileURLToPath } from 'node:url';\nexport const SPEC_PATH = fileURLToPath(new URL(${JSON.stringify(specPathFromOutput.split('\\').join('/'))}, import.meta.url));`;
  return `import * as compiled from 'petstore-spec:validators';
${specPath}
const DOCUMENT = ${JSON.stringify(specDocument())};
export function specDocument() { return DOCUMENT; }
const VALIDATORS = {
  validator(name) {
    const validate = Object.prototype.hasOwnProperty.call(compiled, name) ? compiled[name] : undefined;
    if (!validate) throw new Error('[petstore] spec/openapi.yaml has no schema components/schemas/' + name);
    return validate;
  },
};
export function specValidators() { return VALIDATORS; }
`;
}
