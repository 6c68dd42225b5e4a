import { expect, test } from './fixtures.js';

test('lists the seeded categories and creates one', async ({ openApp }) => {
  const page = await openApp();
  await expect(page.getByRole('listitem')).toHaveText(['dog', 'cat', 'rabbit']);
  await page.getByLabel('New category').fill('ferret');
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('listitem')).toHaveText(['dog', 'cat', 'rabbit', 'ferret']);
  await expect(page.getByRole('status')).toHaveText('4 categories; 57 requests left this minute');
});

test('starts from the seed again: the ferret of another test is gone', async ({ openApp }) => {
  const page = await openApp();
  await expect(page.getByRole('listitem')).toHaveText(['dog', 'cat', 'rabbit']);
});

test('shows the loading state while the network is slow', async ({ fake, openApp }) => {
  await fake.faults.add({ match: { path: '/categories' }, effect: { delayMs: 1500 } });
  const page = await openApp();
  await expect(page.getByRole('status')).toHaveText('Loading…');
  await expect(page.getByRole('listitem')).toHaveText(['dog', 'cat', 'rabbit']);
});

test("shows the fake's 400 message for an empty name", async ({ openApp }) => {
  const page = await openApp();
  await expect(page.getByRole('listitem')).toHaveCount(3);
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('status')).toContainText('name');
  await expect(page.getByRole('listitem')).toHaveCount(3);
});

test('shows a 503 once, then the list after a reload', async ({ fake, openApp }) => {
  const message = 'The Pet Store is down for maintenance';
  await fake.faults.add({ match: { method: 'GET', path: '/categories' }, effect: { status: 503, message }, times: 1 });
  const page = await openApp();
  await expect(page.getByRole('status')).toHaveText(message);
  await page.reload();
  await expect(page.getByRole('listitem')).toHaveCount(3);
});

test('shows the ban with its Retry-After', async ({ fake, openApp }) => {
  await fake.keys.ban('free-test-key', { seconds: 120 });
  const page = await openApp();
  // Counted down in real time from the ban's 120 s: a busy machine may show it a few seconds later.
  await expect(page.getByRole('status')).toHaveText(/^This key is temporarily banned: retry in (120|1[01]\d) s\.$/);
});

test('says the key was refused once it is revoked', async ({ fake, openApp }) => {
  await fake.keys.revoke('free-test-key');
  const page = await openApp();
  await expect(page.getByRole('status')).toHaveText('Your API key was refused (invalid_api_key).');
});

test('counts the 429 down a second at a time', async ({ fake, openApp }) => {
  await fake.keys.setQuota('free-test-key', { minuteRemaining: 0 });
  const page = await openApp();
  const status = page.getByRole('status');
  const secondsLeft = async () => Number(/retry in (\d+) s/.exec((await status.textContent()) ?? '')?.[1]);
  await expect(status).toHaveText(/^Too many requests: retry in (60|5\d) s\.$/);
  const first = await secondsLeft();
  await expect.poll(secondsLeft).toBeLessThan(first);
});

test("admits again once the fake's clock reaches the next minute", async ({ fake, openApp }) => {
  await fake.keys.setQuota('free-test-key', { minuteRemaining: 0 });
  const page = await openApp();
  await expect(page.getByRole('status')).toHaveText(/^Too many requests: retry in (60|5\d) s\.$/);
  fake.clock.advance(60);
  await page.reload();
  await expect(page.getByRole('status')).toHaveText('3 categories; 59 requests left this minute');
});
