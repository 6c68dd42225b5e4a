import { describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

// npm 11 runs no install script here, so msw's postinstall never refreshes the committed worker.
// This test is what keeps it in step with the installed msw: it fails after an msw upgrade until
// `npx msw init demo/public --save` is run again and the result committed.
const root = process.cwd();
const installedWorkerPath = join(root, 'node_modules', 'msw', 'lib', 'mockServiceWorker.js');

/** The version and checksum lines msw stamps into every worker it ships. */
function workerStamp(source: string): { version?: string; checksum?: string } {
  return {
    version: /PACKAGE_VERSION = '([^']+)'/.exec(source)?.[1],
    checksum: /INTEGRITY_CHECKSUM = '([^']+)'/.exec(source)?.[1],
  };
}

async function workerDirectories(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    msw?: { workerDirectory?: string | string[] };
  };
  const directories = manifest.msw?.workerDirectory ?? [];
  return Array.isArray(directories) ? directories : [directories];
}

describe('the committed mockServiceWorker.js', () => {
  it('has its directory recorded in package.json (msw.workerDirectory)', async () => {
    expect(await workerDirectories()).toEqual(['demo/public']);
  });

  it('is the worker of the installed msw, byte for byte (else: npx msw init demo/public --save)', async () => {
    const installed = await readFile(installedWorkerPath, 'utf8');
    for (const directory of await workerDirectories()) {
      const committed = await readFile(join(root, directory, 'mockServiceWorker.js'), 'utf8');
      // The stamp gives a readable failure; the full comparison catches any other edit.
      expect({ directory, ...workerStamp(committed) }).toEqual({ directory, ...workerStamp(installed) });
      expect(committed === installed).toBe(true);
    }
  });
});
