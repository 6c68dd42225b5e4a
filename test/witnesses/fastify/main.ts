// Try the service by hand: node --import tsx test/witnesses/fastify/main.ts 4200
import { startFastifyService } from './index.js';

const port = Number(process.argv[2] ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`Not a port: ${process.argv[2]}`);
  process.exit(2);
}

const service = await startFastifyService({
  port,
  keys: [
    { key: 'free-test-key', plan: 'free' },
    { key: 'pro-test-key', plan: 'pro' },
    { key: 'enterprise-test-key', plan: 'enterprise', perMinute: 5_000, perDay: 1_000_000 },
  ],
});
console.log(service.baseUrl);

const stop = (): void => {
  void service.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
