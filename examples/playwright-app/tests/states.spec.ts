import { expect, test } from './fixtures.js';

test('counts down the 429 once the quota is used up', async ({ fake, openApp }) => {
  await fake.keys.setQuota('free-test-key', { minuteRemaining: 0 });
  const page = await openApp();
  // The page counts down in real time: on a busy machine it may already show a second or two less.
  await expect(page.getByRole('status')).toHaveText(/^Too many requests: retry in (60|5\d) s\.$/);
});

test('shows the offline banner when the connection drops', async ({ fake, openApp }) => {
  await fake.faults.add({ effect: { network: 'error' } });
  const page = await openApp();
  await expect(page.getByRole('status')).toHaveText('You are offline: the Pet Store cannot be reached.');
});
