import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { startFakeServer, type RunningFakeServer } from '../../mocks/server/index.js';
import { brokenVariant } from '../broken-variants/index.js';
import { capturedIo } from './captured-io.js';
import { runContractCli } from './run-contract-cli.js';
import { watchRun } from './watch-in-process.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = join(REPO_ROOT, 'docs/images/html-report.png');
const KEY = 'free-test-key';

/** Opens a report in Chromium with every request but the file itself refused, and hands the page over. */
async function inChromium<T>(
  file: string,
  look: (page: import('playwright-core').Page, requested: string[]) => Promise<T>,
) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const requested: string[] = [];
    await page.route('**/*', (route) => {
      requested.push(route.request().url());
      return route.request().url().startsWith('file:') ? route.continue() : route.abort();
    });
    await page.goto(pathToFileURL(file).href);
    return await look(
      page,
      requested.filter((url) => !url.startsWith('file:')),
    );
  } finally {
    await browser.close();
  }
}

// Where Debian's Chromium is missing (apt-get install -y chromium), these are skipped, not failed.
const withChromium = existsSync(CHROMIUM) ? describe : describe.skip;

withChromium('the HTML report (--html), opened in Chromium', () => {
  let reports: string;
  let broken: RunningFakeServer;
  beforeAll(async () => {
    reports = await mkdtemp(join(tmpdir(), 'html-report-'));
    broken = await startFakeServer({
      port: 0,
      ...brokenVariant('category-id-as-string').fake,
    });
  });
  afterAll(async () => {
    await broken.close();
    await rm(reports, { recursive: true, force: true });
  });

  it('of a two-target run with a failure: the matrix, the heat map and the failure with its curl, nothing fetched', async () => {
    const file = join(reports, 'contract.html');
    const { io } = capturedIo();
    const code = await runContractCli(
      ['--target', 'fake', '--target', broken.baseUrl, '--api-key', KEY, '--runs', '2', '--seed', '7', '--html', file],
      io,
    );
    expect(code).toBe(1);
    await inChromium(file, async (page, fetched) => {
      const header = await page.locator('#matrix thead th').allTextContents();
      expect(header).toEqual(['check', 'fake', broken.baseUrl]);
      const row = page.locator('#matrix tbody tr', { hasText: 'list_categories_conforms' });
      expect(await row.locator('td').allTextContents()).toEqual(['list_categories_conforms', 'PASS', 'FAIL']);
      expect(await page.locator('#matrix tbody tr').count()).toBeGreaterThan(30);
      expect(await page.locator('#heatmap td[data-share]').count()).toBeGreaterThan(50);
      const failure = page.locator('.failure', { hasText: 'list_categories_conforms' });
      expect(await failure.textContent()).toMatch(/Received/);
      expect(await failure.locator('button[data-copy]').getAttribute('data-copy')).toMatch(
        /^curl -X GET '.*\/v1\/categories'/,
      );
      expect(fetched).toEqual([]);
    });
  }, 180_000);

  it('of a two-target run where one defect meets many checks: the run, grouped findings, every skip and the evidence in text, linked cells, a legend', async () => {
    const dated = await startFakeServer({ port: 0, ...brokenVariant('content-type-sent-twice').fake });
    const file = join(reports, 'grouped.html');
    try {
      const { io } = capturedIo();
      const args = [
        '--target',
        'fake',
        '--target',
        dated.baseUrl,
        '--api-key',
        'enterprise-test-key',
        '--runs',
        '2',
        '--seed',
        '7',
      ];
      expect(await runContractCli([...args, '--html', file], io)).toBe(1);
    } finally {
      await dated.close();
    }
    await inChromium(file, async (page, fetched) => {
      const context = await page.locator('#context').textContent();
      expect(context).toContain('--api-key *** --runs 2 --seed 7');
      expect(context).not.toContain('enterprise-test-key');
      expect(context).toMatch(/harness \d+\.\d+\.\d+, spec 1\.0\.0/);
      expect(context).toMatch(/\d+\.\d s, \d+ requests, the key's plan: 5000 requests a minute/);
      // One cause, every check that met it named once under it.
      const cause = page.locator('#causes tr', { hasText: 'content_type_syntax' });
      expect(await cause.count()).toBe(1);
      expect(
        Number(/met by (\d+)|(\d+):/.exec((await cause.locator('td').nth(2).textContent()) ?? '')?.[2]),
      ).toBeGreaterThan(5);
      // A FAIL cell leads to its failure, a SKIP cell to the reason, both in the page's text.
      const failLink = page.locator('#matrix td.failed a').first();
      const target = (await failLink.getAttribute('href'))!.slice(1);
      expect(await page.locator(`[id="${target}"]`).textContent()).toMatch(/Received/);
      const skipLink = page.locator('#matrix td.skipped a').first();
      expect(await page.locator(`[id="${(await skipLink.getAttribute('href'))!.slice(1)}"]`).textContent()).toMatch(
        /\w{10,}/,
      );
      expect(await page.locator('#skips tbody tr').count()).toBeGreaterThan(2);
      expect(await page.textContent('body')).toMatch(/entries of the evidence catalogue tried/);
      expect(await page.locator('#heat-legend').textContent()).toContain('striped');
      expect(fetched).toEqual([]);
      if (process.env.UPDATE_SCREENSHOTS) {
        await mkdir(join(REPO_ROOT, 'docs/images'), { recursive: true });
        // The top of the page: the run, the findings by cause, the matrix and the heat map with its legend.
        await page.screenshot({ path: SCREENSHOT, clip: { x: 0, y: 0, width: 1200, height: 2000 } });
      }
    });
  }, 240_000);

  it('of a watch session: the rules against the upstream and each violation', async () => {
    const file = join(reports, 'watch.html');
    const run = await watchRun(['--upstream', broken.baseUrl, '--html', file], async (base) => {
      await fetch(`${base}/categories`, { headers: { Authorization: `Bearer ${KEY}` } });
      await fetch(`${base}/pets/1`, { headers: { Authorization: `Bearer ${KEY}` } });
    });
    expect(run.code).toBe(1);
    const html = await readFile(file, 'utf8');
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/);
    await inChromium(file, async (page) => {
      const row = page.locator('#matrix tbody tr', { hasText: 'body_schema' });
      expect(await row.locator('td').allTextContents()).toEqual(['body_schema', 'FAIL']);
      expect(await page.locator('.failure').first().textContent()).toContain('listCategories 200');
      expect(await page.textContent('body')).toMatch(/calls to getPetById/);
    });
  }, 60_000);
});
