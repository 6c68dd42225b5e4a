// Serves the built Storybook (storybook-static/) on a free loopback port, opens every story in Debian's
// headless Chromium, checks that it shows its state, and screenshots it: into STORYBOOK_SCREENSHOTS when
// set (docs/images/storybook/ in the repository), else a temporary folder.
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright-core';

const STATIC = join(import.meta.dirname, 'storybook-static');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };
// Each story, and what its status line says once it shows its state, then what follows (the 429 counts down).
const STORIES = [
  ['seeded', /^3 categories; 59 requests left this minute$/],
  ['empty-list', /^No categories yet: add the first one\.$/],
  ['loading-under-latency', /^Loading…$/, /^3 categories/],
  ['invalid-name', /name/],
  ['unauthorized', /^Your API key was refused \(invalid_api_key\)\.$/],
  ['rate-limited', /^Too many requests: retry in 60 s\.$/, /^Too many requests: retry in 59 s\.$/],
  ['banned', /^This key is temporarily banned: retry in 300 s\.$/],
  ['offline', /^You are offline: the Pet Store cannot be reached\.$/],
  ['many-categories', /^12 categories; 42 requests left this minute$/],
];

const server = createServer(async (request, response) => {
  const path = normalize(decodeURIComponent(new URL(request.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  const file = join(STATIC, path.endsWith('/') ? `${path}index.html` : path);
  if (!(await stat(file).catch(() => undefined))?.isFile()) return response.writeHead(404).end();
  response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(response);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
const out = process.env.STORYBOOK_SCREENSHOTS ?? (await mkdtemp(join(tmpdir(), 'storybook-screenshots-')));
await mkdir(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  const errors = [];
  const shown = [];
  for (const [name, ...states] of STORIES) {
    // A context per story: its own service worker registration, as a reader opening that story has.
    const context = await browser.newContext({ viewport: { width: 460, height: 300 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(`${name}: ${error.message}`));
    await page.goto(`${origin}/iframe.html?id=pet-store-categorylist--${name}&viewMode=story`);
    const status = page.getByRole('status');
    for (const [index, state] of states.entries()) {
      await status
        .filter({ hasText: state })
        .waitFor({ timeout: 15_000 })
        .catch(async () => {
          throw new Error(
            `story ${name}: the status line says "${await status.textContent().catch(() => '')}", not ${state}`,
          );
        });
      if (index === 0) await page.screenshot({ path: join(out, `${name}.png`) });
    }
    shown.push(name);
    await context.close();
  }
  if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
  console.log(
    `storybook: ${shown.length} stories showed their state in Chromium (${shown.join(', ')}); screenshots in ${out}`,
  );
} finally {
  await browser.close();
  server.close();
}
