// Serves the built app (vite preview on a free loopback port) and checks both pages in headless Chromium:
// the fake's service worker answers before the first render, a category created in the page is listed,
// and the backend switch's key and plan (pro: 300 a minute) are the ones the fake applies.
import { chromium } from 'playwright-core';
import { preview } from 'vite';

const server = await preview({ preview: { host: '127.0.0.1', port: 0, strictPort: false }, logLevel: 'warn' });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
async function checkPage(path, expectedStatus) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(new URL(path, server.resolvedUrls.local[0]).href);
  await page.waitForFunction(() => document.querySelectorAll('#categories li').length > 0, undefined, {
    timeout: 15_000,
  });
  const seeded = await page.locator('#categories li').allTextContents();
  if (seeded.join() !== 'dog,cat,rabbit')
    throw new Error(`${path}: expected dog, cat, rabbit; the page lists ${seeded.join(', ')}`);
  await page.fill('input[name=name]', 'ferret');
  await page.click('button');
  await page.waitForFunction(() => document.querySelectorAll('#categories li').length === 4, undefined, {
    timeout: 5_000,
  });
  // The status line follows the list's reload after the create: wait for it to settle (or time out and
  // report what it says), so a read between the two answers is not taken for a wrong count.
  await page
    .waitForFunction((expected) => document.querySelector('#status')?.textContent === expected, expectedStatus, {
      timeout: 5_000,
    })
    .catch(() => undefined);
  const status = await page.textContent('#status');
  if (status !== expectedStatus) throw new Error(`${path}: unexpected status line: ${status}`);
  if (errors.length > 0) throw new Error(`${path}: page errors: ${errors.join('; ')}`);
  await context.close();
  return `listed ${seeded.join(', ')}, created ferret; "${status}"`;
}

try {
  const quickStart = await checkPage('/', '4 categories; 57 requests left this minute');
  const backendSwitch = await checkPage('/backend-switch.html', '4 categories; 297 requests left this minute');
  console.log(`vite app in Chromium: ${quickStart}; backend switch (pro key): ${backendSwitch}`);
} finally {
  await browser.close();
  await server.close();
}
