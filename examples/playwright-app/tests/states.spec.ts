import { expect, test } from './fixtures.js';

test('counts down the 429 once the quota is used up', async ({ fake, openApp }) => {
  await fake.keys.setQuota('free-test-key', { minuteRemaining: 0 });
  const page = await openApp();
  await expect(page.getByRole('status')).toHaveText('Too many requests: retry in 60 s.');
});

test('shows the offline banner when the connection drops', async ({ fake, openApp }) => {
  await fake.faults.add({ effect: { network: 'error' } });
  const page = await openApp();
  await expect(page.getByRole('status')).toHaveText('You are offline: the Pet Store cannot be reached.');
});
