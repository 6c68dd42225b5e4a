import { describe, expect, it } from '@jest/globals';
import { override, startFakeServer } from '../../mocks/server/index.js';
import { brokenVariant } from '../broken-variants/index.js';
import { CHECKS } from '../checks/registry.js';
import { EXCLUSIVE_KEY_CHECKS, SHARED_KEY_SKIP } from '../runner/shared-key.js';
import { capturedIo } from './captured-io.js';
import { runContractCli } from './run-contract-cli.js';
import { watchRun } from './watch-in-process.js';

const KEY = 'free-test-key';
const keyed = { headers: { Authorization: `Bearer ${KEY}` } };

/**
 * A tester's curl beside the proxied app: every read through the proxy is followed by two with the same
 * key straight to the service, which the proxy never sees.
 */
function besideTheProxy(direct: string) {
  return async (proxied: string) => {
    for (let round = 0; round < 4; round += 1) {
      for (const path of ['/categories', '/store/orders', '/categories']) {
        expect((await fetch(`${proxied}${path}`, keyed)).status).toBe(200);
        await fetch(`${direct}/categories`, keyed);
        await fetch(`${direct}${path}`, keyed);
      }
    }
  };
}

describe('a key used beside the proxy: watch judges only what the traffic it did not see cannot explain', () => {
  it('passes clean traffic by default, and fails it with --exclusive-key, whose exact accounting the unseen requests break', async () => {
    const service = await startFakeServer({ port: 0 });
    const again = await startFakeServer({ port: 0 });
    try {
      const shared = await watchRun(['--upstream', service.baseUrl], besideTheProxy(service.baseUrl));
      expect(shared.out).toContain('Violations: none');
      expect(shared.code).toBe(0);
      // The same traffic to a fresh service (the free key's minute holds one session, not two).
      const exclusive = await watchRun(['--upstream', again.baseUrl, '--exclusive-key'], besideTheProxy(again.baseUrl));
      expect(exclusive.out).toMatch(
        /charged_once_per_admitted_request: X-RateLimit-Remaining did not fall by exactly one for an admitted 200/,
      );
      expect(exclusive.code).toBe(1);
    } finally {
      await service.close();
      await again.close();
    }
  }, 60_000);

  it('still catches a service whose Remaining does not fall, or that changes its Limit, with the key shared', async () => {
    for (const name of ['remaining-not-decreasing', 'errors-shown-uncharged']) {
      const variant = brokenVariant(name);
      const service = await startFakeServer({ port: 0, ...variant.fake });
      try {
        const run = await watchRun(['--upstream', service.baseUrl], async (proxied) => {
          await besideTheProxy(service.baseUrl)(proxied);
          // A 404 right after a 200, both through the proxy: an uncharged error shows the 200's count again.
          await fetch(`${proxied}/categories`, keyed);
          await fetch(`${proxied}/pets/999999`, keyed);
        });
        expect(run.out).toMatch(
          /charged_once_per_admitted_request: X-RateLimit-Remaining did not fall for an admitted/,
        );
        expect(run.code).toBe(1);
      } finally {
        await service.close();
      }
    }
    const changing = await startFakeServer({
      port: 0,
      overrides: [
        override.all(
          async ({ next }) => {
            const answer = await next();
            // Every other answer claims a larger plan: no other client of the key explains a Limit that moves.
            const remaining = Number(answer.headers['X-RateLimit-Remaining'] ?? null);
            return remaining % 2 === 0
              ? { ...answer, headers: { ...answer.headers, 'X-RateLimit-Limit': '1000' } }
              : answer;
          },
          { beforeAuth: true },
        ),
      ],
    });
    try {
      const run = await watchRun(['--upstream', changing.baseUrl], besideTheProxy(changing.baseUrl));
      expect(run.out).toMatch(/fixed_utc_windows: X-RateLimit-Limit of the minute window changed/);
      expect(run.code).toBe(1);
    } finally {
      await changing.close();
    }
  }, 60_000);

  it('the suite with --shared-key skips the checks that count every request of the key, naming why', async () => {
    expect([...EXCLUSIVE_KEY_CHECKS].filter((name) => !CHECKS.some((check) => check.name === name))).toEqual([]);
    const service = await startFakeServer({ port: 0 });
    try {
      const { io, out } = capturedIo();
      const code = await runContractCli(
        [
          '--target',
          service.baseUrl,
          '--api-key',
          'enterprise-test-key',
          '--allow',
          'writes,quota',
          '--shared-key',
          '--runs',
          '1',
        ],
        io,
      );
      // Each check's line ends with where the run stands (`[12/51 checks, 230 of about 552 requests]`).
      const skipped = out
        .map((line) => line.replace(/ {2}\[\d+\/\d+ checks, [^\]]+\]$/, ''))
        .filter((line) => line.endsWith(`skipped: ${SHARED_KEY_SKIP}`))
        .map((line) => line.split(/ +/)[1]);
      expect(skipped.sort()).toEqual([...EXCLUSIVE_KEY_CHECKS].sort());
      expect(code).toBe(0);
    } finally {
      await service.close();
    }
  }, 240_000);
});
