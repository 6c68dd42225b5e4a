// `npm run deps` (dependency-cruiser in CI) is what holds the layers; this test only guards the
// configuration itself: a rule set that reported nothing on an upward import would pass CI forever.
import { describe, expect, it, beforeAll, afterAll } from '@jest/globals';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';

const CONFIG = resolve('.dependency-cruiser.cjs');

// A tiny tree laid out as the repository is: one upward import (core -> checks), one sideways import
// within a layer (transport -> coverage), a folder with no layer, one fake -> suite import, and imports that keep the rules
// (runner -> checks and report -> runner go down; a test may import any layer).
const FIXTURE: Record<string, string> = {
  'contracts/checks/check.ts': "import { MINUTE } from '../core/windows.js';\nexport const check = MINUTE;\n",
  'contracts/core/windows.ts':
    "import { check } from '../checks/check.js';\nexport const MINUTE = 60;\nexport const upward = check;\n",
  'contracts/coverage/coverage.ts': 'export const coverage = 1;\n',
  'contracts/transport/send.ts':
    "import { coverage } from '../coverage/coverage.js';\nexport const sideways = coverage;\n",
  'contracts/runner/run.ts': "import { check } from '../checks/check.js';\nexport const run = check;\n",
  'contracts/runner/run.test.ts': "import { report } from '../report/report.js';\nexport const fromATest = report;\n",
  'contracts/report/report.ts': "import { run } from '../runner/run.js';\nexport const report = run;\n",
  'contracts/unplaced/thing.ts': "import { MINUTE } from '../core/windows.js';\nexport const thing = MINUTE;\n",
  'mocks/domain/plans.ts': "import { check } from '../../contracts/checks/check.js';\nexport const plans = check;\n",
  // A cycle in the fake through type-only imports: it ties the modules as much as a value cycle.
  'mocks/domain/store.ts': "import type { Step } from './step.js';\nexport interface Store { step?: Step }\n",
  'mocks/domain/step.ts': "import type { Store } from './store.js';\nexport interface Step { store?: Store }\n",
};

let root: string;
let result: ICruiseResult;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'import-rules-'));
  for (const [path, text] of Object.entries(FIXTURE)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  const { tsConfig: _tsConfig, ...options } = await extractDepcruiseOptions(CONFIG);
  const output = await cruise(['contracts', 'mocks'], {
    ...options,
    baseDir: root,
    validate: true,
    outputType: 'json',
  });
  result = JSON.parse(output.output as string) as ICruiseResult;
}, 60_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function violations(): string[] {
  return result.summary.violations.map(({ rule, from, to }) => `${rule.name}: ${from} -> ${to}`);
}

describe('the import rules of .dependency-cruiser.cjs', () => {
  it('report the upward import, the cycle it makes, the sideways import, the folder with no layer, the fake importing the suite and a type-only cycle in the fake, and nothing else', () => {
    expect(violations().sort()).toEqual([
      'contracts-folder-has-a-layer: contracts/unplaced/thing.ts -> contracts/core/windows.ts',
      'core-imports-only-the-spec: contracts/core/windows.ts -> contracts/checks/check.ts',
      'fake-does-not-import-the-suite: mocks/domain/plans.ts -> contracts/checks/check.ts',
      'layer-core: contracts/core/windows.ts -> contracts/checks/check.ts',
      'layer-transport: contracts/transport/send.ts -> contracts/coverage/coverage.ts',
      'no-circular: contracts/checks/check.ts -> contracts/core/windows.ts',
      'no-circular: mocks/domain/step.ts -> mocks/domain/store.ts',
    ]);
  });

  it('fail the run: every one is an error', () => {
    expect(result.summary.error).toBe(7);
  });
});
