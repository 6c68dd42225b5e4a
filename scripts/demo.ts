import { Command, InvalidArgumentError } from 'commander';
import { buildDemoPage, DEMO_PUBLIC_DIR } from '../demo/bundle/build-demo-page.js';
import { startDemoServer } from '../demo/server/static-server.js';

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new InvalidArgumentError('expected an integer from 0 to 65535');
  return port;
}

const program = new Command('npm run demo --')
  .description(
    'Serves the offline demo page; its API calls are answered by the fake in a service worker, not by this server.',
  )
  .option('--port <port>', 'port to listen on (0 = random)', parsePort, 5173)
  .option('--host <host>', 'address to listen on', '127.0.0.1')
  .option('--api <base-url>', "'fake' for the in-page fake, or the base URL of a real service (ending in /v1)", 'fake')
  .parse();

const options = program.opts<{ port: number; host: string; api: string }>();
const builtAssets = await buildDemoPage({ api: options.api });
const server = await startDemoServer({
  publicDir: DEMO_PUBLIC_DIR,
  builtAssets,
  port: options.port,
  host: options.host,
});
console.log(
  `Demo page: ${server.url}  (API: ${options.api === 'fake' ? "the fake, in the page's service worker" : options.api})`,
);
console.log('Try ?key=pro-test-key, ?perMinute=2 (a 429 on the third call), ?persist=0. Ctrl+C stops.');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
