/** @startsFirst it mostly waits for the quota windows the two targets share (test/waiting-first-sequencer.js). */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { startFakeServer, type RunningFakeServer } from '../../mocks/server/index.js';
import {
  REDIS_INSTALL_COMMAND,
  REDIS_SERVER_PATH,
  redisIsInstalled,
  startRedis,
  type RedisProcess,
} from './redis-server.js';

// The contract suite against two standalone fakes sharing one Redis, `--target` each of them, as QA would
// point it at a sandbox behind a load balancer. Both share one quota, one anonymous bucket per address and
// one set of records, so each target's checks also see the other's writes: they must still pass.
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const installed = redisIsInstalled();
const describeWithRedis = installed ? describe : describe.skip;

describeWithRedis(
  `the contract suite against a pair of instances on Redis${installed ? '' : ` (skipped: no ${REDIS_SERVER_PATH}; ${REDIS_INSTALL_COMMAND})`}`,
  () => {
    let redis: RedisProcess;
    let pair: RunningFakeServer[] = [];
    beforeAll(async () => {
      redis = await startRedis();
      pair = [
        await startFakeServer({ port: 0, redis: { url: redis.url, prefix: 'pair:' } }),
        await startFakeServer({ port: 0, redis: { url: redis.url, prefix: 'pair:' } }),
      ];
    }, 30_000);
    afterAll(async () => {
      await Promise.all(pair.map((server) => server.close()));
      await redis?.stop();
    });

    it('passes every check on both targets, and the targets agree', async () => {
      const { PETSTORE_API_KEY: _ignored, ...env } = process.env;
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'scripts/contract.ts',
          ...pair.flatMap((server) => ['--target', server.baseUrl]),
          '--allow',
          'writes',
          '--seed',
          '14',
        ],
        {
          cwd: REPO_ROOT,
          env: { ...env, PETSTORE_API_KEY: 'enterprise-test-key' },
        },
      );
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.resume();
      const [code] = (await once(child, 'close')) as [number | null];
      expect({ code, tail: stdout.split('\n').slice(-4).join('\n') }).toEqual({
        code: 0,
        tail: expect.stringContaining('The targets agree on every check they all ran.'),
      });
      expect(stdout).toMatch(/\d+ passed, 0 failed/);
    }, 600_000);
  },
);
