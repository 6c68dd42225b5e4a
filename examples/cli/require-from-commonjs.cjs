// A CommonJS caller (a script, a tool's config) gets the package's CommonJS build through `require`.
const { setupFake } = require('petstore-harness/node');

const { server } = setupFake({ baseUrl: 'http://petstore.test/v1' });
server.listen({ onUnhandledRequest: 'error' });
fetch('http://petstore.test/v1/categories', { headers: { Authorization: 'Bearer free-test-key' } })
  .then(async (response) => {
    const names = (await response.json()).map(({ name }) => name);
    if (response.status !== 200 || names.join() !== 'dog,cat,rabbit') throw new Error(`${response.status} ${names}`);
    console.log(
      `require('petstore-harness/node'): ${require.resolve('petstore-harness/node').replace(/.*node_modules\//, '')} answered ${names.join(', ')}`,
    );
  })
  .finally(() => server.close());
