// The page of the host-equivalence test: the fake in this page's service worker under /v1, reachable from
// the test as `window.petstoreFake`, and the named overrides as `window.useOverride(name)`.
import { createFakeWorker } from '../../mocks/browser/index.js';
import { FROZEN_CLOCK, NAMED_OVERRIDES, type OverrideName } from './named-overrides.js';

const fakeWorker = createFakeWorker({ persist: false, clock: FROZEN_CLOCK });
await fakeWorker.start({ quiet: true });
Object.assign(window, {
  petstoreFake: fakeWorker.fake,
  useOverride: (name: OverrideName) => void fakeWorker.fake.overrides.use(NAMED_OVERRIDES[name]()),
});
document.getElementById('app')!.dataset.state = 'ready';
