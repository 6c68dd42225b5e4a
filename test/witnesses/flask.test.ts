/** @startsFirst a paced contract run against a live service: mostly waits for its quota windows (test/waiting-first-sequencer.js). */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeWitness } from './contract-run.js';
import { missingTools, startProcessWitness } from './process-witness.js';

const SOURCE = fileURLToPath(new URL('./flask', import.meta.url));

describeWitness(
  'Flask 2 on gunicorn 20 (its own HTTP server, one gthread worker)',
  ({ keys }) =>
    startProcessWitness(keys, (port, keysFile) => ({
      command: join(SOURCE, 'run.sh'),
      args: [],
      cwd: SOURCE,
      env: { PORT: String(port), KEYS_FILE: keysFile },
    })),
  missingTools([
    {
      probe: ['/usr/bin/python3', '-c', 'import flask, gunicorn'],
      install: 'apt-get install -y python3-flask gunicorn',
    },
  ]),
);
