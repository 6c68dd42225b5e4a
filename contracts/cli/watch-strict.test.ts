import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeServer, type RunningFakeServer } from '../../mocks/server/index.js';
import { withHeaders, wrapping } from '../broken-variants/variant.js';
import { sendOrdinaryTraffic } from '../watch/ordinary-traffic.js';
import type { WatchReport } from '../watch/watch-report.js';
import { capturedIo } from './captured-io.js';
import { runContractCli } from './run-contract-cli.js';
import { watchRun } from './watch-in-process.js';

// A key whose minute the replay of this traffic never uses up, so no wait slows the test.
const KEY = 'enterprise-test-key';

// A service that keeps every MUST and breaks one SHOULD of the rules under the spec: no answer says
// X-Content-Type-Options: nosniff (OWASP API8 hardening, `no_sniffing`).
describe('watch and replay --strict: a SHOULD warns by default and fails when strict', () => {
  let service: RunningFakeServer;
  let reports: string;
  beforeAll(async () => {
    service = await startFakeServer({
      port: 0,
      ...wrapping(async (_request, next) =>
        withHeaders(await next(), (headers) => headers.delete('X-Content-Type-Options')),
      ),
    });
    reports = await mkdtemp(join(tmpdir(), 'watch-strict-'));
  });
  afterAll(async () => {
    await service.close();
    await rm(reports, { recursive: true, force: true });
  });

  it('watch lists the SHOULD under Warnings and exits 0; with --strict it is a violation and exits 1', async () => {
    const json = join(reports, 'lenient.json');
    const lenient = await watchRun(
      ['--upstream', service.baseUrl, '--json', json, '--har', join(reports, 'w.har')],
      (baseUrl) => sendOrdinaryTraffic(baseUrl, KEY).then(() => undefined),
    );
    expect(lenient.code).toBe(0);
    const text = lenient.out;
    expect(text).not.toContain('VIOLATION');
    expect(text).toMatch(
      /^Warnings \(SHOULDs of the rules under the spec; --strict makes them violations\): \d+, by rule:$/m,
    );
    expect(text).toMatch(/^ {2}no_sniffing: \d+ \(first: \w+ \d{3}, /m);
    const report = JSON.parse(await readFile(json, 'utf8')) as WatchReport;
    expect(report.summary.violations).toEqual([]);
    expect(report.summary.warningsByRule.no_sniffing).toBeGreaterThan(0);
    expect(report.summary.warnings.filter(({ rule }) => rule === 'no_sniffing').length).toBeLessThanOrEqual(5);

    const junit = join(reports, 'strict.xml');
    const strict = await watchRun(['--upstream', service.baseUrl, '--strict', '--junit', junit], (baseUrl) =>
      sendOrdinaryTraffic(baseUrl, KEY).then(() => undefined),
    );
    expect(strict.code).toBe(1);
    expect(strict.out).toMatch(/^VIOLATION {2}\w+ \d{3} {2}no_sniffing: /m);
    // A CI job reads the JUnit: the rule is a testcase of its own, failed, like the spec's promises.
    const xml = await readFile(junit, 'utf8');
    expect(xml).toMatch(
      /<testcase classname="watch" name="no_sniffing" time="0">\n {6}<failure message="\d+ exchanges broke no_sniffing"/,
    );
    expect(xml).toContain('<testcase classname="watch" name="credential_never_echoed" time="0"></testcase>');
  }, 60_000);

  it('replay warns the same way, and fails with --strict', async () => {
    const harFile = join(reports, 'w.har');
    const lenient = capturedIo();
    const args = ['replay', harFile, '--target', service.baseUrl, '--api-key', KEY];
    expect(await runContractCli(args, lenient.io)).toBe(0);
    expect(lenient.out.join('\n')).toMatch(/^ {2}no_sniffing: \d+ \(first: /m);
    const strict = capturedIo();
    expect(await runContractCli([...args, '--strict'], strict.io)).toBe(1);
    expect(strict.out.join('\n')).toMatch(/^Violations: \d+, by rule:$/m);
    expect(strict.out.join('\n')).toMatch(/^ {2}no_sniffing: \d+ \(first: /m);
  }, 60_000);
});
