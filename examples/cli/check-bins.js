// `npx petstore-fake --port 0` answers on the port it prints; `npx petstore-contract --target fake` exits 0.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

// Its own process group, so that stopping it stops npx and the server npx started.
const fake = spawn('npx', ['petstore-fake', '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
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
  if (response.status !== 200 || names.join() !== 'dog,cat,rabbit') throw new Error(`GET ${baseUrl}/categories: ${response.status} ${names}`);
  console.log(`npx petstore-fake --port 0: ${baseUrl} answered 200 with ${names.join(', ')}`);
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
