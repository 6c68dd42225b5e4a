import { createFakeWorker } from 'petstore-harness/browser';
import { renderApp } from './app.js';

await createFakeWorker().start(); // the fake answers /v1 on the page's origin; start it before rendering
await renderApp();
