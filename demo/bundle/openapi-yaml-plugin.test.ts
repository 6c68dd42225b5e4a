import { describe, expect, it } from '@jest/globals';
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { openApiYamlPlugin } from './openapi-yaml-plugin.js';

const specPath = join(process.cwd(), 'spec', 'openapi.yaml');

/** Bundles `import document from spec/openapi.yaml` and evaluates the result, as a browser would. */
async function bundledDocument(plugins: Parameters<typeof build>[0]['plugins']): Promise<unknown> {
  const result = await build({
    stdin: { contents: `import document from ${JSON.stringify(specPath)}; module.exports = document;`, resolveDir: process.cwd() },
    bundle: true,
    format: 'cjs',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    ...(plugins ? { plugins } : {}),
  });
  const module = { exports: {} as unknown };
  new Function('module', result.outputFiles[0]!.text)(module);
  return module.exports;
}

describe('openApiYamlPlugin', () => {
  it('inlines spec/openapi.yaml as the same object the yaml package parses from the file', async () => {
    const expected: unknown = parse(await readFile(specPath, 'utf8'));
    expect(await bundledDocument([openApiYamlPlugin()])).toEqual(expected);
  });

  it('is what makes the import work: without it esbuild refuses the .yaml file', async () => {
    await expect(bundledDocument(undefined)).rejects.toThrow(/No loader is configured for ".yaml" files/);
  });
});
