// `npx petstore-fake --port 0` answers on the port it prints; `npx petstore-contract --target fake` exits 0.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

// A fault rule from the start (--faults), as QA would run the fake to see a flaky list.
const faultsFile = join(mkdtempSync(join(tmpdir(), 'faults-')), 'faults.json');
writeFileSync(
  faultsFile,
  JSON.stringify([{ id: 'orders-down', match: { path: '/store/orders' }, effect: { status: 503 } }]),
);

// Its own process group, so that stopping it stops npx and the server npx started.
const fake = spawn('npx', ['petstore-fake', '--port', '0', '--quiet', '--faults', faultsFile], {
  stdio: ['ignore', 'pipe', 'inherit'],
  detached: true,
});
try {
  const lines = createInterface({ input: fake.stdout });
  const timeout = setTimeout(() => process.kill(-fake.pid, 'SIGKILL'), 30_000);
  let baseUrl;
  for await (const line of lines) {
    baseUrl = /listening on (\S+)/.exec(line)?.[1];
    if (baseUrl) break;
  }
  clearTimeout(timeout);
  if (!baseUrl) throw new Error('petstore-fake never printed its address');
  const response = await fetch(`${baseUrl}/categories`, { headers: { Authorization: 'Bearer free-test-key' } });
  const names = (await response.json()).map(({ name }) => name);
  if (response.status !== 200 || names.join() !== 'dog,cat,rabbit')
    throw new Error(`GET ${baseUrl}/categories: ${response.status} ${names}`);
  console.log(`npx petstore-fake --port 0: ${baseUrl} answered 200 with ${names.join(', ')}`);
  const orders = () => fetch(`${baseUrl}/store/orders`, { headers: { Authorization: 'Bearer free-test-key' } });
  const down = await orders();
  if (down.status !== 503 || down.headers.get('retry-after') !== '1')
    throw new Error(`--faults: GET /store/orders answered ${down.status}, not 503 with Retry-After: 1`);
  const admin = new URL('/__admin/faults/orders-down', baseUrl);
  const removed = await fetch(admin, { method: 'DELETE' });
  const after = await orders();
  if (removed.status !== 204 || after.status !== 200)
    throw new Error(`DELETE ${admin}: ${removed.status}, then GET /store/orders ${after.status}`);
  console.log('--faults FILE: GET /store/orders answered 503; after DELETE /__admin/faults/orders-down, 200');
} finally {
  const exited = once(fake, 'exit');
  process.kill(-fake.pid, 'SIGTERM');
  await exited;
}

const contract = spawnSync('npx', ['petstore-contract', '--target', 'fake', '--seed', '1'], { encoding: 'utf8' });
const summary = contract.stdout.split('\n').find((line) => /passed, \d+ failed/.test(line));
console.log(`npx petstore-contract --target fake: exit ${contract.status}; ${summary}`);
if (contract.status !== 0) {
  console.error(contract.stdout, contract.stderr);
  process.exit(1);
}
