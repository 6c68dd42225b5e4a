import { describe, expect, it } from '@jest/globals';
import { build } from 'esbuild';
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { invalidObjectCases, invalidValueCases } from '../../contracts/generate/invalid-values.js';
import { boundaryValues, validValues } from '../../contracts/generate/valid-values.js';
import { documentedSpec } from '../../contracts/core/spec-document.js';
import type { OpenApiDocument, SchemaValidators } from '../../spec/schema-registry.js';
import { specDocument, specValidators } from '../../spec/spec-artifacts.js';
import { specArtifactsPlugin } from './spec-artifacts-plugin.js';

const ENTRY = `export { specDocument, specValidators } from './spec/spec-artifacts.js';`;

/** Bundles spec-artifacts as the package build does (CommonJS here, to evaluate it in this process). */
async function bundled(): Promise<{
  text: string;
  exports: { specDocument(): OpenApiDocument; specValidators(): SchemaValidators };
}> {
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: process.cwd(), loader: 'ts' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    outdir: join(process.cwd(), 'dist'),
    write: false,
    logLevel: 'silent',
    plugins: [specArtifactsPlugin()],
  });
  const text = result.outputFiles[0]!.text;
  const module = { exports: {} as never };
  new Function('module', 'exports', 'require', '__dirname', text)(
    module,
    module.exports,
    createRequire(join(process.cwd(), 'x.js')),
    join(process.cwd(), 'dist'),
  );
  return { text, exports: module.exports };
}

describe('specArtifactsPlugin', () => {
  it('inlines the same document the sources parse from spec/openapi.yaml', async () => {
    expect((await bundled()).exports.specDocument()).toEqual(specDocument());
  });

  it('carries compiled validators and no schema compiler or YAML parser', async () => {
    const { text } = await bundled();
    // esbuild names every bundled module in a comment: only ajv's runtime helpers may be among them.
    expect(text).toMatch(/node_modules\/ajv\/dist\/runtime\//);
    expect(text).not.toMatch(/node_modules\/(yaml|ajv\/dist\/(compile|core))\//);
  });

  it('compiles validators that answer every generated value exactly as the ones compiled at run time', async () => {
    const compiled = (await bundled()).exports.specValidators();
    const schemas = documentedSpec().schemas;
    for (const [name, schema] of Object.entries(schemas)) {
      const atBuild = compiled.validator(name);
      const atRunTime = specValidators().validator(name);
      const agree = (value: unknown) => {
        const verdict = atBuild(value);
        expect([name, verdict, atBuild.errors ?? null]).toEqual([name, atRunTime(value), atRunTime.errors ?? null]);
      };
      for (const value of boundaryValues(schema)) agree(value);
      const broken = schema.type === 'object' ? invalidObjectCases(schema) : invalidValueCases(schema);
      const values = fc.oneof(
        validValues(schema),
        fc.jsonValue({ maxDepth: 3 }),
        ...broken.map((brokenCase) => brokenCase.values),
      );
      fc.assert(
        fc.property(values, (value) => agree(value)),
        { seed: 7, numRuns: 200 },
      );
    }
  });

  it('names the schema when asked for one the spec does not have', async () => {
    await expect(bundled().then(({ exports }) => exports.specValidators().validator('Nope'))).rejects.toThrow(
      'components/schemas/Nope',
    );
  });
});
