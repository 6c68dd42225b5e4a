import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ContractId } from '../checks/check.js';
import { checkNamed } from '../checks/registry.js';
import type { CheckName } from '../core/contract-ids.js';
import { runChecks } from '../runner/run-checks.js';
import { suiteSettings } from '../runner/suite-settings.js';
import { startFakeTarget } from '../targets/fake-target.js';
import { rawFront, type FrontMode } from './raw-front.js';
import type { RunningTarget, TargetDescriptor } from '../targets/target.js';

const SEEDS = [1, 2, 3, 4, 5];

/** Request fields a front sets itself (fetch refuses to pass them on, or frames the body anew). */
const HOP_FIELDS = /^(host|connection|keep-alive|content-length|transfer-encoding|expect|upgrade|te|trailer)$/i;

async function contentOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A front on a random port that passes each request to the fake and its answer back without the fields
 * `drop` names: what a gateway in front of a service does when it strips them. Node's server, unlike the
 * fake's, adds no Content-Type of its own, so the front can break what no override of the fake can.
 */
async function frontDropping(
  fake: RunningTarget,
  drop: RegExp | undefined,
): Promise<{ descriptor: TargetDescriptor; close(): Promise<void> }> {
  const upstream = new URL(fake.descriptor.baseUrl).origin;
  const server = createServer((request, response) => {
    void (async () => {
      const headers = Object.entries(request.headers).flatMap(([name, value]) =>
        HOP_FIELDS.test(name) || value === undefined ? [] : [[name, String(value)] as [string, string]],
      );
      const content = await contentOf(request);
      try {
        const answer = await fetch(`${upstream}${request.url}`, {
          method: request.method,
          headers,
          ...(content.length > 0 && { body: new Uint8Array(content) }),
          redirect: 'manual',
        });
        const body = Buffer.from(await answer.arrayBuffer());
        const kept = [...answer.headers].filter(
          ([name]) => !HOP_FIELDS.test(name) && name !== 'content-encoding' && !drop?.test(name),
        );
        response.writeHead(answer.status, Object.fromEntries(kept));
        response.end(body);
      } catch {
        response.writeHead(502).end();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    descriptor: { ...fake.descriptor, baseUrl: `http://127.0.0.1:${port}/v1` },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The ids of what a check found broken behind the front, under a seed and --strict (the rules here are SHOULDs). */
async function findingIds(
  front: { descriptor: TargetDescriptor },
  check: CheckName,
  seed: number,
): Promise<ContractId[]> {
  const settings = suiteSettings({ live: false, seed, strict: true });
  // A descriptor of its own: the runner keeps one session (and its settings) per descriptor object.
  const [result] = await runChecks([checkNamed(check)], { ...front.descriptor }, { settings });
  // One finding per operation: the distinct rules.
  return [...new Set((result?.findings ?? []).filter(({ kind }) => kind === 'rule').map(({ id }) => id))];
}

describe.each([
  ['content_type_on_content', /^content-type$/i, 'answers_keep_the_protocol'],
  ['cors_exposes_the_spec_headers', /^access-control-expose-headers$/i, 'answers_leak_nothing'],
] as const)('the fake behind a front that breaks %s', (rule, drop, check) => {
  let fake: RunningTarget;
  beforeAll(async () => {
    fake = await startFakeTarget();
  });
  afterAll(() => fake.close());

  it(`fails ${check} with a finding of ${rule}, under each of five seeds`, async () => {
    const front = await frontDropping(fake, drop);
    try {
      for (const seed of SEEDS) expect([seed, await findingIds(front, check, seed)]).toEqual([seed, [rule]]);
    } finally {
      await front.close();
    }
  }, 120_000);

  it('finds nothing of the kind behind a front that passes every field on (the front alone breaks nothing)', async () => {
    const front = await frontDropping(fake, undefined);
    try {
      expect(await findingIds(front, check, SEEDS[0]!)).toEqual([]);
    } finally {
      await front.close();
    }
  }, 60_000);
});

/** Seeds of the raw fronts' runs (the checks below draw no generated cases; the verdict must not move with the seed). */
const RAW_FRONT_SEEDS = [11, 22, 33, 44, 55];

describe.each([
  // A gateway that keeps the first of two Authorization fields: the fake, which reads one, admits the key.
  ['repeated_credentials_refused', 'authorization-merged', 'malformed_credentials_refused'],
  // A line end written past the Content-Length of each answer with content: seen by the raw reader, which reads to the close.
  ['content_length_matches', 'line-end-after-content', 'every_method_routed'],
  // Content sent after the header section of an answer to HEAD (then the connection closes).
  ['no_content_where_none_can_be', 'content-after-head', 'every_method_routed'],
] as const)('the fake behind a raw front that breaks %s', (rule, mode, check) => {
  let fake: RunningTarget;
  beforeAll(async () => {
    fake = await startFakeTarget();
  });
  afterAll(() => fake.close());

  const behindFront = async (frontMode: FrontMode | undefined) => {
    const front = frontMode && (await rawFront(new URL(fake.descriptor.baseUrl).origin, frontMode));
    return {
      descriptor: front ? { ...fake.descriptor, baseUrl: `${front.origin}/v1` } : fake.descriptor,
      close: async () => front?.close(),
    };
  };

  it(`fails ${check} with a finding of ${rule}, under each of five seeds`, async () => {
    const front = await behindFront(mode);
    try {
      for (const seed of RAW_FRONT_SEEDS) expect([seed, await findingIds(front, check, seed)]).toEqual([seed, [rule]]);
    } finally {
      await front.close();
    }
  }, 120_000);

  it('finds nothing of the kind on the fake alone', async () => {
    expect(await findingIds(await behindFront(undefined), check, RAW_FRONT_SEEDS[0]!)).toEqual([]);
  }, 60_000);
});
