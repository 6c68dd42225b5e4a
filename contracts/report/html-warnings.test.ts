import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { startFakeServer, type RunningFakeServer } from '../../mocks/server/index.js';
import { brokenVariant } from '../broken-variants/index.js';
import { capturedIo } from '../cli/captured-io.js';
import { runContractCli } from '../cli/run-contract-cli.js';

// A run that passes with warnings, as a QA lead sees it against staging: a service that names its
// server's version on every answer (a hardening warning, a failure only with --strict). The HTML and
// JUnit reports must show the warnings, and the heat map must draw the 500 rows a live target cannot
// give apart from real gaps.

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = join(REPO_ROOT, 'docs/images/html-report-warnings.png');
const CHECKS = [
  'list_categories_conforms',
  'list_orders_conforms',
  'get_pet_conforms',
  'create_category_conforms',
  'missing_api_key_rejected',
  'invalid_body_rejected',
  'error_body_conformance',
  'answers_keep_the_protocol',
];

/** Opens a report in Chromium with every request but the file itself refused. */
async function inChromium(file: string, look: (page: Page, fetched: string[]) => Promise<void>): Promise<void> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const fetched: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (!url.startsWith('file:')) fetched.push(url);
      return url.startsWith('file:') ? route.continue() : route.abort();
    });
    await page.goto(pathToFileURL(file).href);
    await look(page, fetched);
  } finally {
    await browser.close();
  }
}

// Where Debian's Chromium is missing (apt-get install -y chromium), the page is not opened.
const withChromium = existsSync(CHROMIUM) ? it : it.skip;

describe('a run that passes with warnings, against a live target', () => {
  let service: RunningFakeServer;
  let reports: string;
  let exitCode = -1;
  beforeAll(async () => {
    reports = await mkdtemp(join(tmpdir(), 'html-warnings-'));
    service = await startFakeServer({ port: 0, ...brokenVariant('server-header-versioned').fake });
    const { io } = capturedIo();
    exitCode = await runContractCli(
      [
        ...['--target', service.baseUrl, '--api-key', 'enterprise-test-key', '--allow', 'writes'],
        ...['--checks', CHECKS.join(','), '--runs', '2', '--seed', '7'],
        ...['--html', join(reports, 'run.html'), '--junit', join(reports, 'run.xml')],
      ],
      io,
    );
  }, 120_000);
  afterAll(async () => {
    await service.close();
    await rm(reports, { recursive: true, force: true });
  });

  it('passes: a warning is not a failure without --strict', () => {
    expect(exitCode).toBe(0);
  });

  it('JUnit: a skipped `<check> warnings` case per check with warnings, its message the first, and their count as a property', async () => {
    const xml = await readFile(join(reports, 'run.xml'), 'utf8');
    const warned = [...xml.matchAll(/<testcase [^>]*name="([a-z_]+) warnings"[^>]*>\s*<skipped message="([^"]*)"/g)];
    expect(warned.length).toBeGreaterThan(3);
    for (const [, check, message] of warned) {
      expect(CHECKS).toContain(check);
      expect(message).toMatch(
        /^\d+ warnings? \(a SHOULD the target broke; --strict makes it a failure\): server_version_hidden: /,
      );
    }
    expect(Number(/<property name="warnings" value="(\d+)"\/>/.exec(xml)?.[1])).toBeGreaterThanOrEqual(warned.length);
    // The skipped cases are counted, the failures are not touched.
    expect(xml).toMatch(/<testsuite [^>]* failures="0" errors="0" skipped="\d+"/);
  });

  withChromium(
    'HTML: a banner, the Warnings table, yellow PASS cells linked to them, and the 500 rows hatched apart from gaps',
    async () => {
      await inChromium(join(reports, 'run.html'), async (page, fetched) => {
        expect(await page.locator('#verdict').textContent()).toMatch(/\d+ warnings?/);
        expect(await page.locator('#warnings-banner').isVisible()).toBe(true);
        // One row for the one defect, every check that met it named in it, as failures are by cause.
        const rows = page.locator('#warnings tbody tr');
        expect(await rows.count()).toBe(1);
        expect(await rows.first().locator('td.rule').textContent()).toBe('server_version_hidden');
        expect(await rows.first().locator('td.text summary').textContent()).toContain('Received: server: nginx/1.25.3');
        expect(await rows.first().locator('td.text pre').textContent()).toMatch(/^curl -X /);
        // Every warned PASS cell leads to its check's name in that row.
        const warned = page.locator('#matrix td.passed.warned a.warned');
        expect(await warned.count()).toBeGreaterThan(3);
        for (const link of await warned.all()) {
          expect(await link.textContent()).toMatch(/^\d+ warnings?$/);
          const anchor = (await link.getAttribute('href'))!.slice(1);
          expect(await page.locator(`#warnings span[id="${anchor}"]`).count()).toBe(1);
        }
        // Every cell of a 500 row is hatched (this target cannot give it) and says why; no other row is.
        const cannot = page.locator('#heatmap td.cannot');
        expect(await cannot.count()).toBeGreaterThanOrEqual(4);
        for (const title of await cannot.evaluateAll((cells) => cells.map((cell) => cell.getAttribute('title'))))
          expect(title).toMatch(/ 500 .*no target can give it \(.* cannot: /);
        const fiveHundreds = page.locator('#heatmap tbody tr', { hasText: ' 500' });
        expect(await fiveHundreds.locator('td[data-share]').count()).toBe(0);
        expect(await page.locator('#heatmap td[data-share="0"]').count()).toBeGreaterThan(0);
        expect(fetched).toEqual([]);
        if (process.env.UPDATE_SCREENSHOTS) {
          await mkdir(join(REPO_ROOT, 'docs/images'), { recursive: true });
          // The top of the page: the verdict and its warnings, the run, the matrix and the heat map.
          await page.screenshot({ path: SCREENSHOT, fullPage: true, clip: { x: 0, y: 0, width: 1200, height: 2200 } });
        }
      });
    },
    60_000,
  );
});
