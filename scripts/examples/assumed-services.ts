import { existsSync } from 'node:fs';
import type { AssumedService } from './follow-guide.js';

// Servers a page takes as already running on the reader's machine ("with a Redis at 127.0.0.1:6379"), by
// the project that needs them: the follower starts them before the page's first step, in the project's
// network. Where the program is missing the project is skipped, saying what to install, as the repository's
// Redis tests are.

const REDIS_SERVER = '/usr/bin/redis-server';

/** What a project assumes, and why it cannot be followed here (undefined when it can). */
export interface Assumed {
  services: AssumedService[];
  missing(): string | undefined;
}

/** By project name. */
export const ASSUMED_SERVICES: Readonly<Record<string, Assumed>> = {
  'redis-quick-start': {
    services: [
      {
        name: 'a Redis at 127.0.0.1:6379',
        // Nothing written to disk: the Redis lives as long as the project.
        command: `${REDIS_SERVER} --port 6379 --bind 127.0.0.1 --save '' --appendonly no`,
        port: 6379,
      },
    ],
    missing: () =>
      existsSync(REDIS_SERVER) ? undefined : `no ${REDIS_SERVER} to be its Redis: apt-get install -y redis-server`,
  },
};
