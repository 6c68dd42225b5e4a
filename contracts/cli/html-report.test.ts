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
      if (process.env.UPDATE_SCREENSHOTS) {
        await mkdir(join(REPO_ROOT, 'docs/images'), { recursive: true });
        await page.screenshot({ path: SCREENSHOT, fullPage: true });
      }
    });
  }, 180_000);

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
