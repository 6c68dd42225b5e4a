import { describe, expect, it } from '@jest/globals';
import { checkNamed } from '../checks/registry.js';
import { onCreate, textAnswer } from '../broken-variants/variant.js';
import { startFakeTarget } from '../targets/fake-target.js';
import type { Check } from '../checks/check.js';
import type { CheckResult } from './check-result.js';
import { runChecks } from './run-checks.js';
import { suiteSettings } from './suite-settings.js';
import { statusOfCurl } from '../../test/support/curl-in-bash.js';

/** The body a reproduction sends: the bytes of its curl's `--data-binary $'...'`, shell escapes read back as bash does. */
function bodyOf(curl: string): string {
  const quoted = /--data-binary \$'((?:[^'\\]|\\.)*)'/.exec(curl)?.[1];
  if (quoted === undefined) return /--data-binary '([^']*)'/.exec(curl)?.[1] ?? '';
  const bytes: number[] = [];
  for (const [, escape, plain] of quoted.matchAll(/\\(x[0-9a-fA-F]{2}|.)|([^\\]+)/gsu)) {
    if (plain !== undefined) bytes.push(...Buffer.from(plain));
    else if (escape!.startsWith('x')) bytes.push(parseInt(escape!.slice(1), 16));
    else bytes.push(...Buffer.from({ n: '\n', t: '\t', r: '\r', 0: '\0' }[escape!] ?? escape!));
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * A service broken on one character: a body holding it in any string makes the service fail with a 500
 * (`text/plain`, as a crashed handler answers); every other body is stored as the spec says. Made with
 * the fake's typed overrides, as the broken variants are (contracts/broken-variants).
 */
const failsOn = (character: string) =>
  onCreate(async (request, next) => {
    const body = await request.json();
    if (!JSON.stringify(body ?? null).includes(JSON.stringify(character).slice(1, -1))) return next();
    // The request was admitted and charged (the fake's answer to an empty body says how): only the handler failed.
    const { headers } = await next({ body: '{}' });
    const rateLimit = Object.entries(headers).filter(([name]) => /^x-ratelimit-/i.test(name));
    return textAnswer(500, 'Internal Server Error', 'text/plain', Object.fromEntries(rateLimit));
  });

/** One check that sends one large body holding NUL (not a property): what the model finds in it is shrunk by the runner. */
const oneLargeBody: Check = {
  name: 'one_large_body' as Check['name'], // a check of this test only, in no registry
  verifies: 'a large valid body is stored',
  needs: ['writes'],
  async run(context) {
    const name = `${'🐾'.repeat(30)}\u0000${'e\u0301'.repeat(20)}`;
    await context.send({ method: 'POST', path: '/categories', json: { name, description: '\u202eשלום'.repeat(40) } });
  },
};

/** The check's result against the service; its reproduction, run in bash against it, gets the 500 again. */
async function runAgainst(character: string, checks: readonly Check[]): Promise<CheckResult> {
  const target = await startFakeTarget(failsOn(character));
  try {
    const [result] = await runChecks(checks, target.descriptor, {
      settings: suiteSettings({ live: false, seed: 2026, runs: 20 }),
    });
    expect(await statusOfCurl(result!.failure!.curl!)).toBe(500);
    return result!;
  } finally {
    await target.close();
  }
}

/** The failure's reproduction holds the character and little else; its first line is the shrunk case. */
function expectSmallest(result: CheckResult, character: string): void {
  expect(result.outcome).toBe('failed');
  const failure = result.failure!;
  expect(failure.status).toBe(500);
  const body = JSON.parse(bodyOf(failure.curl!)) as Record<string, string>;
  expect(JSON.stringify(body)).toContain(JSON.stringify(character).slice(1, -1));
  // `{"name":"a","description":"<the character>"}` at most: the required name and the character.
  expect(Object.values(body).join('').replace(/a/g, '')).toBe(character);
  expect(failure.lines[0]).toMatch(/^Counterexample \(.*shrunk from \d+ to \d+ characters.* of a \d+-request budget\)/);
  expect(result.findings![0]!.id).toBe('no_server_error');
  expect(result.findings![0]!.curl).toBe(failure.curl);
  // The shrink's own requests leave the model nothing else to find: the 500 (and its text body) only.
  expect(result.findings!.map(({ id }) => id).sort()).toEqual(['errors_are_error_bodies', 'no_server_error']);
}

describe('the smallest counterexample, against a service that fails on one character', () => {
  // Both come in the long boundary bodies (100 code points of `\u202eשלום`, of `e\u0301`) before any short one.
  it.each([
    ['a right-to-left override', '\u202e'],
    ['a combining acute accent', '\u0301'],
  ])(
    'a generated body: %s',
    async (_name, character) => {
      expectSmallest(await runAgainst(character, [checkNamed('valid_bodies_stored_as_sent')!]), character);
    },
    60_000,
  );

  it("a body a check sent once, judged by the model alone: the runner shrinks the model's finding too", async () => {
    expectSmallest(await runAgainst('\u0000', [oneLargeBody]), '\u0000');
  }, 60_000);
});
