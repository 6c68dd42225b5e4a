import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { brokenVariant } from '../broken-variants/index.js';
import { rawFront, type FrontMode } from '../broken-variants/raw-front.js';
import type { CheckResult } from '../runner/check-result.js';
import { runChecks } from '../runner/run-checks.js';
import { suiteSettings } from '../runner/suite-settings.js';
import { startFakeTarget } from '../targets/fake-target.js';
import type { RunningTarget, TargetDescriptor } from '../targets/target.js';
import { sendOnConnection } from '../transport/raw-connection.js';
import { rawRequestBytes } from '../transport/request-bytes.js';
import type { Check } from './check.js';
import { connectionRulesKept, hostFieldRequiredOnce } from './connection-checks.js';
import { outputOfBash } from '../../test/support/curl-in-bash.js';

const SEEDS = [1, 2, 3, 4, 5];

/** The fake, behind a front of `mode` when one is given; the suite talks to the front and resets the fake. */
async function targetBehind(
  mode?: FrontMode,
): Promise<{ descriptor: TargetDescriptor; close(): Promise<void>; headsSeen?(): number }> {
  const fake: RunningTarget = await startFakeTarget();
  if (!mode) return fake;
  const front = await rawFront(new URL(fake.descriptor.baseUrl).origin, mode);
  return {
    descriptor: { ...fake.descriptor, baseUrl: `${front.origin}/v1` },
    headsSeen: front.headsSeen,
    close: async () => {
      await front.close();
      await fake.close();
    },
  };
}

async function resultOf(
  check: Check,
  target: { descriptor: TargetDescriptor },
  seed = 1,
  strict = false,
  maxRequests?: number,
) {
  const settings = suiteSettings({
    live: false,
    seed,
    ...(strict && { strict }),
    ...(maxRequests !== undefined && { maxRequests }),
  });
  // A descriptor of its own: the runner keeps one session (and its settings) per descriptor object.
  const [result] = await runChecks([check], { ...target.descriptor }, { settings });
  return result!;
}

const findingIds = (result: CheckResult) => (result.findings ?? []).map(({ id }) => id);

/** The statuses a finding's `Reproduce ...: (exec 3<>/dev/tcp/...)` line gets when run in bash, as a developer would paste it. */
async function statusesOfReproduction(result: CheckResult): Promise<number[]> {
  const line = result.failure?.lines.find((each) => /^Reproduce[^:]*: \(exec 3<>/.test(each));
  const command = line?.slice(line.indexOf(': ') + 2);
  if (!command) return [];
  return [...(await outputOfBash(command)).matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((match) => Number(match[1]));
}

describe('raw connections', () => {
  it('writes a chunked body with its trailer section, and reads answers back in order', async () => {
    const bytes = rawRequestBytes({
      method: 'POST',
      target: '/v1/categories',
      headers: [['Host', 'h']],
      body: { bytes: '{}', framing: 'chunked', trailers: [['X-Sum', '1']] },
    });
    expect(bytes.toString('latin1')).toBe(
      'POST /v1/categories HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n1\r\n}\r\n0\r\nX-Sum: 1\r\n\r\n',
    );
    const fake = await startFakeTarget();
    try {
      const { origin, host, pathname } = new URL(fake.descriptor.baseUrl);
      const read = { method: 'GET', target: `${pathname}/categories`, headers: [['Host', host]] as const };
      const nowhere = { ...read, target: `${pathname}/nowhere` };
      const outcome = await sendOnConnection(origin, [read, nowhere, read], { pipelined: true });
      expect(outcome.answers.map(({ status }) => status)).toEqual([401, 401, 401]);
      const closing = await sendOnConnection(
        origin,
        [{ ...read, headers: [...read.headers, ['Connection', 'close']] }],
        {
          awaitClose: true,
        },
      );
      expect([closing.answers.length, closing.closedByServer]).toEqual([1, true]);
    } finally {
      await fake.close();
    }
  }, 30_000);
});

describe('connection_rules_kept', () => {
  let plain: { descriptor: TargetDescriptor; close(): Promise<void> };
  beforeAll(async () => {
    plain = await targetBehind();
  });
  afterAll(() => plain.close());

  it('passes the fake', async () => {
    expect((await resultOf(connectionRulesKept, plain)).outcome).toBe('passed');
  }, 30_000);

  it("counts every request it writes on a raw connection in the run's count, and stops at --max-requests", async () => {
    const front = await targetBehind('passing');
    try {
      const result = await resultOf(connectionRulesKept, front);
      expect(result.outcome).toBe('passed');
      // Each request the front read (on a raw connection or not) is one the run counted.
      expect(result.requests).toBe(front.headsSeen!());
      const bounded = await resultOf(connectionRulesKept, front, 1, false, 4);
      expect([bounded.outcome, bounded.requests]).toEqual(['skipped', 3]);
      expect(bounded.reason).toMatch(/--max-requests 4/);
    } finally {
      await front.close();
    }
  }, 60_000);

  it.each([
    ['connection-kept-after-close', 'close_ends_the_connection'],
    ['chunked-answers-to-http10', 'no_chunked_answer_to_http10'],
  ])(
    'fails the variant %s with the rule it breaks, %s',
    async (name, rule) => {
      const target = await startFakeTarget(brokenVariant(name).fake);
      try {
        expect(findingIds(await resultOf(connectionRulesKept, target))).toContain(rule);
      } finally {
        await target.close();
      }
    },
    30_000,
  );

  it('fails a front that answers pipelined requests out of order, under each of five seeds', async () => {
    const front = await targetBehind('swapped');
    try {
      for (const seed of SEEDS) {
        const result = await resultOf(connectionRulesKept, front, seed);
        expect([seed, result.outcome, findingIds(result)]).toEqual([seed, 'failed', ['pipelined_answers_in_order']]);
      }
      // The printed bytes, written on one connection, get the three answers again (their statuses; the order is in the codes).
      expect(await statusesOfReproduction(await resultOf(connectionRulesKept, front))).toEqual([401, 401, 401]);
    } finally {
      await front.close();
    }
  }, 60_000);

  it('warns of a front that closes after every answer without saying close, and fails it under --strict', async () => {
    const front = await targetBehind('closes-silently');
    try {
      const byDefault = await resultOf(connectionRulesKept, front);
      expect(byDefault.outcome).toBe('passed');
      expect(byDefault.warnings?.join('\n')).toContain('connections_persist');
      for (const seed of SEEDS) {
        const strict = await resultOf(connectionRulesKept, front, seed, true);
        expect([seed, strict.outcome, findingIds(strict)]).toEqual([seed, 'failed', ['connections_persist']]);
      }
    } finally {
      await front.close();
    }
  }, 60_000);
});

describe('host_field_required_once', () => {
  it('passes the fake, which refuses a request with two Host fields (and Node, one without)', async () => {
    const fake = await targetBehind();
    try {
      expect((await resultOf(hostFieldRequiredOnce, fake)).outcome).toBe('passed');
    } finally {
      await fake.close();
    }
  }, 30_000);

  it('fails the fake behind a gateway that passes such a request on with one Host, under each of five seeds', async () => {
    const fake = await targetBehind('host-merged');
    try {
      for (const seed of SEEDS) {
        const result = await resultOf(hostFieldRequiredOnce, fake, seed);
        expect([seed, result.outcome, findingIds(result)]).toEqual([seed, 'failed', ['host_field_required_once']]);
        expect(result.failure?.title).toMatch(/no Host field|two Host fields/);
      }
      // The printed bytes (two Host fields, which curl cannot send) are served again.
      expect(await statusesOfReproduction(await resultOf(hostFieldRequiredOnce, fake))).toEqual([401]);
    } finally {
      await fake.close();
    }
  }, 60_000);

  it('passes the fake behind a front that answers 400 to a request without Host or with two', async () => {
    const guarded = await targetBehind('host-guarded');
    try {
      expect((await resultOf(hostFieldRequiredOnce, guarded)).outcome).toBe('passed');
    } finally {
      await guarded.close();
    }
  }, 30_000);
});
