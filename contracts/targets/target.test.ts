import { describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PRISM_CAPABILITIES, PRISM_LACKING, prismScript } from './prism-target.js';
import { UsageError } from './target-errors.js';
import { skipReason } from './target.js';

describe('skipReason', () => {
  const prism = { capabilities: PRISM_CAPABILITIES, lacking: PRISM_LACKING };

  it('is undefined when the target has every capability the check needs', () => {
    expect(skipReason(['writes'], prism)).toBeUndefined();
    expect(skipReason([], prism)).toBeUndefined();
  });

  it("is the target's reason for the first capability it lacks", () => {
    expect(skipReason(['writes', 'realAuth'], prism)).toBe(
      'Prism accepts any bearer token: only a missing Authorization gives 401',
    );
  });

  it('still names the capability when the target gives no reason', () => {
    expect(skipReason(['clock'], { capabilities: [], lacking: {} })).toBe('the target lacks the "clock" capability');
  });
});

describe('prismScript', () => {
  it("finds Prism's script where the module is installed", () => {
    expect(existsSync(prismScript())).toBe(true);
  });

  it('is a usage error (exit 2) naming the package to install where Prism is not installed', () => {
    const elsewhere = pathToFileURL(join(tmpdir(), 'no-prism-here', 'cli.js')).href;
    expect(() => prismScript(elsewhere)).toThrow(UsageError);
    expect(() => prismScript(elsewhere)).toThrow('npm install --save-dev @stoplight/prism-cli@5.14.2');
  });
});
