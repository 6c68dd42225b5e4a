// One fresh process: import, set up, and the first answer to GET /categories; prints the milliseconds
// since the process started. `fake` imports the built package (petstore-harness/node, i.e. dist/) as a
// consumer does; `bare` is msw's setupServer with one static handler, the floor the fake is held to.
// Plain JavaScript, so no TypeScript loader is part of what is measured.
const which = process.argv[2];
const url = 'http://petstore.test/v1/categories';
let server;
if (which === 'fake') {
  const { setupFake } = await import('petstore-harness/node');
  ({ server } = setupFake({ baseUrl: 'http://petstore.test/v1' }));
} else if (which === 'bare') {
  const { http, HttpResponse } = await import('msw');
  const { setupServer } = await import('msw/node');
  server = setupServer(http.get(url, () => HttpResponse.json([{ id: 1, name: 'dog' }])));
} else {
  throw new Error('usage: node bench/first-answer.mjs fake|bare');
}
server.listen({ onUnhandledRequest: 'error' });
const response = await fetch(url, { headers: { authorization: 'Bearer free-test-key' } });
await response.json();
const elapsed = performance.now();
server.close();
if (response.status !== 200) throw new Error(`${which}: GET /categories answered ${response.status}`);
process.stdout.write(`${Math.round(elapsed)}\n`);
