import { startServerProcess } from './bench/server-process.js';
import { sendRequests } from './bench/load.js';
import { freeLoopbackPort } from './contracts/targets/free-port.js';
import { FAKE_SERVER_BIN } from './scripts/build/bundles.js';
const KEY = 'bench-enterprise-key';
const headers = { authorization: `Bearer ${KEY}` };
const fport = await freeLoopbackPort();
const fake = await startServerProcess({ name: 'fake', command: process.execPath, args: [FAKE_SERVER_BIN, '--port', String(fport), '--keys', '/tmp/xp-keys.json', '--quiet'], baseUrl: `http://127.0.0.1:${fport}/v1`, headers });
for (const mode of (process.env.MODES ?? 'http,nojudge').split(',')) {
  const pport = await freeLoopbackPort();
  const prof = ['--cpu-prof', `--cpu-prof-dir=/tmp/prof-${mode}`];
  const proxy = await startServerProcess({ name: mode, command: process.execPath, args: mode === 'full' || mode === 'nojudge' ? [...prof, '--import', 'tsx', '/work/main/xp3.mts', mode, fake.baseUrl, String(pport)] : [...prof, '/tmp/ux/minproxy.mjs', mode, fake.baseUrl, String(pport)], baseUrl: `http://127.0.0.1:${pport}/v1`, headers });
  const c0 = proxy.cpuMicros();
  const t0 = performance.now();
  const n = await sendRequests(proxy, 'GET', 40000, { connections: 20, key: KEY });
  console.log(mode, Math.round(n / ((performance.now() - t0) / 1000)), 'req/s', Math.round((proxy.cpuMicros() - c0) / n), 'µs/req');
  await proxy.stop();
}
await fake.stop();
