import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';

const run = promisify(execFile);
const specPath = join(process.cwd(), 'spec', 'openapi.yaml');
const bin = (name: string) => join(process.cwd(), 'node_modules', '.bin', name);

describe('spec/openapi.yaml', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(specPath);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lints clean with Spectral (spectral:oas and the OWASP API Security 2023 ruleset, no finding at any severity)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spec-lint-'));
    try {
      const report = join(dir, 'spectral.json');
      // Spectral exits 1 on findings; the report is read either way.
      await run(bin('spectral'), [
        'lint',
        specPath,
        '--ruleset',
        'spec/.spectral.yaml',
        '--format',
        'json',
        '--output',
        report,
        '--fail-severity',
        'hint',
      ]).catch(() => undefined);
      const findings = JSON.parse(await readFile(report, 'utf8')) as Array<{
        code: string;
        message: string;
        path: string[];
      }>;
      expect(findings.map((f) => `${f.code}: ${f.message} at ${f.path.join('.')}`)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('has generated TypeScript types that are up to date (npm run spec:types)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spec-types-'));
    try {
      const fresh = join(dir, 'openapi.d.ts');
      await run(bin('openapi-typescript'), [specPath, '--output', fresh]);
      const committed = await readFile(join(process.cwd(), 'spec', 'openapi.d.ts'), 'utf8');
      expect(committed).toBe(await readFile(fresh, 'utf8'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
