/** @startsFirst a paced contract run against a live service: mostly waits for its quota windows (test/waiting-first-sequencer.js). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeWitness } from './contract-run.js';
import { missingTools, startProcessWitness } from './process-witness.js';

const SOURCE = fileURLToPath(new URL('./go', import.meta.url));
// Go's standard library only: no module is fetched (GOPROXY=off), so the build needs no network.
const GO_ENV = { GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local' };

describeWitness(
  'Go 1.19 net/http (its own http.Server)',
  async ({ keys }) => {
    const binary = join(mkdtempSync(join(tmpdir(), 'witness-go-')), 'petstore');
    const build = spawnSync('go', ['build', '-o', binary, '.'], { cwd: SOURCE, env: { ...process.env, ...GO_ENV } });
    if (build.status !== 0) throw new Error(`go build failed:\n${String(build.stderr)}`);
    return startProcessWitness(keys, (port, keysFile) => ({
      command: binary,
      args: ['-port', String(port), '-keys', keysFile],
      cwd: SOURCE,
    }));
  },
  missingTools([{ probe: ['go', 'version'], install: 'apt-get install -y golang-go' }]),
);
