// The page of the browser tests: the fake in this page's service worker, built with the configuration
// in `?config=` (JSON of createFakeWorker's options), and reachable from the test as `window.petstoreFake`.
import { createFakeWorker } from '../../mocks/browser/index.js';

const config = JSON.parse(new URLSearchParams(location.search).get('config') ?? '{}') as Parameters<
  typeof createFakeWorker
>[0];
const fakeWorker = createFakeWorker({ ...config, persist: false });
await fakeWorker.start({ quiet: true });
Object.assign(window, { petstoreFake: fakeWorker.fake });
document.getElementById('app')!.dataset.state = 'ready';
