import { startServerProcess } from './bench/server-process.js';
import { loadServer } from './bench/load.js';
import { freeLoopbackPort } from './contracts/targets/free-port.js';
import { FAKE_SERVER_BIN, CONTRACT_BIN } from './scripts/build/bundles.js';
import { writeFileSync } from 'node:fs';
const KEY = 'bench-enterprise-key';
const keysFile = '/tmp/xp-keys.json';
writeFileSync(keysFile, JSON.stringify([{ key: KEY, plan: 'enterprise', perMinute: 1_000_000_000, perDay: 1_000_000_000 }]));
const headers = { authorization: `Bearer ${KEY}` };
const fport = await freeLoopbackPort();
const fake = await startServerProcess({ name: 'fake', command: process.execPath, args: [FAKE_SERVER_BIN, '--port', String(fport), '--keys', keysFile, '--quiet'], baseUrl: `http://127.0.0.1:${fport}/v1`, headers });
const load = { connections: 20, durationSeconds: 4, key: KEY };
for (const mode of ['http', 'full', 'nojudge', 'http', 'full', 'nojudge']) {
  const pport = await freeLoopbackPort();
  const proxy = await startServerProcess({ name: mode, command: process.execPath, args: mode === 'full' || mode === 'nojudge' ? ['--import', 'tsx', '/work/main/xp3.mts', mode, fake.baseUrl, String(pport)] : mode === 'watch' ? [CONTRACT_BIN, 'watch', '--upstream', fake.baseUrl, '--port', String(pport)] : ['/tmp/ux/minproxy.mjs', mode, fake.baseUrl, String(pport)], baseUrl: `http://127.0.0.1:${pport}/v1`, headers });
  const d = await loadServer(fake, 'GET', load);
  const c0 = proxy.cpuMicros();
  const p = await loadServer(proxy, 'GET', load);
  console.log(mode, 'direct', d.requestsPerSecond, d.serverCpuMicrosPerRequest, '| proxied', p.requestsPerSecond, `(${Math.round(100*p.requestsPerSecond/d.requestsPerSecond)}%)`, 'proxy µs/req', Math.round((proxy.cpuMicros() - c0) / p.requests));
  await proxy.stop();
}
await fake.stop();
