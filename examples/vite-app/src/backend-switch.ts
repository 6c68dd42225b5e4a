// src/backend-switch.ts
import { renderApp } from './app.js';

const PETSTORE_API = import.meta.env.VITE_PETSTORE_API ?? 'fake'; // or e.g. https://staging.api.petstore.example.com/v1
export const apiBaseUrl = PETSTORE_API === 'fake' ? '/v1' : PETSTORE_API;

if (PETSTORE_API === 'fake') {
  // A dynamic import keeps the fake out of production bundles.
  const { createFakeWorker } = await import('petstore-harness/browser');
  const fakeWorker = createFakeWorker({
    keys: [{ key: 'my-dev-key', plan: 'pro' }], // the key your app sends, and its plan
    persist: true, // keep categories across reloads
  });
  await fakeWorker.start(); // resolves once the fake answers
}
await renderApp({ baseUrl: apiBaseUrl, key: 'my-dev-key' }); // fetch(`${apiBaseUrl}/categories`) with that key
