// Serves the built app (vite preview on a free loopback port) and checks it in headless Chromium: the
// fake's service worker answers before the first render, and a category created in the page is listed.
import { chromium } from 'playwright-core';
import { preview } from 'vite';

const server = await preview({ preview: { host: '127.0.0.1', port: 0, strictPort: false }, logLevel: 'warn' });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
try {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(server.resolvedUrls.local[0]);
  await page.waitForFunction(() => document.querySelectorAll('#categories li').length > 0, undefined, {
    timeout: 15_000,
  });
  const seeded = await page.locator('#categories li').allTextContents();
  if (seeded.join() !== 'dog,cat,rabbit')
    throw new Error(`expected dog, cat, rabbit; the page lists ${seeded.join(', ')}`);
  await page.fill('input[name=name]', 'ferret');
  await page.click('button');
  await page.waitForFunction(() => document.querySelectorAll('#categories li').length === 4, undefined, {
    timeout: 5_000,
  });
  const status = await page.textContent('#status');
  if (!/^4 categories; 57 requests left this minute$/.test(status ?? ''))
    throw new Error(`unexpected status line: ${status}`);
  if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
  console.log(`vite app in Chromium: listed ${seeded.join(', ')}, created ferret; "${status}"`);
} finally {
  await browser.close();
  await server.close();
}
