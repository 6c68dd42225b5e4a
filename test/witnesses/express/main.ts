import { startExpressService } from './index.js';

// Try it: node --import tsx test/witnesses/express/main.ts 4100
const port = Number(process.argv[2] ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`usage: main.ts [port], got ${JSON.stringify(process.argv[2])}`);
  process.exit(2);
}

const service = await startExpressService({
  port,
  keys: [
    { key: 'free-test-key', plan: 'free' },
    { key: 'pro-test-key', plan: 'pro' },
    { key: 'enterprise-test-key', plan: 'enterprise', perMinute: 5000, perDay: 1_000_000 },
  ],
});
console.log(service.baseUrl);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void service.close().then(() => process.exit(0));
  });
}
