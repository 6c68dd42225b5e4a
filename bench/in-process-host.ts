// Requests/s of the in-process Node host: msw `setupServer` with the fake's handlers, and `fetch`
// calls from the same process, as a frontend test suite makes them. Run as its own process by run.ts;
// prints one JSON line.
import { setupFake } from '../mocks/node/index.js';
import { apiKeysFromConfig } from '../mocks/domain/plans.js';
import { POST_BODY } from './load.js';

const [durationArg = '5', concurrencyArg = '20'] = process.argv.slice(2);
const durationMs = Number(durationArg) * 1000;
const concurrency = Number(concurrencyArg);
const baseUrl = 'http://petstore.test/v1';
const keys = apiKeysFromConfig([{ key: 'bench-key', plan: 'enterprise', perMinute: 1e9, perDay: 1e9 }], 'bench keys');
const { server, fake } = setupFake({ baseUrl, keys });
server.listen({ onUnhandledRequest: 'error' });

async function measure(method: 'GET' | 'POST', ms: number): Promise<{ requestsPerSecond: number; unexpected: number }> {
  const success = method === 'GET' ? 200 : 201;
  const init = {
    method,
    headers: { authorization: 'Bearer bench-key', 'content-type': 'application/json' },
    ...(method === 'POST' && { body: POST_BODY }),
  };
  const deadline = performance.now() + ms;
  let done = 0;
  let unexpected = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const response = await fetch(`${baseUrl}/categories`, init);
      await response.arrayBuffer();
      if (response.status !== success) unexpected += 1;
      done += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { requestsPerSecond: Math.round(done / ((performance.now() - started) / 1000)), unexpected };
}

await measure('GET', 1_000);
const get = await measure('GET', durationMs);
const post = await measure('POST', durationMs);
await fake.reset();
server.close();
process.stdout.write(`${JSON.stringify({ get, post })}\n`);
