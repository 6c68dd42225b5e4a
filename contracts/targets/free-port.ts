import { createServer } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 right now (the OS picks it; a tiny race remains until it is bound again).
 * @example const port = await freeLoopbackPort();
 */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no port was assigned'))));
    });
  });
}
