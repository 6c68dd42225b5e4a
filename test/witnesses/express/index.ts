import type { AddressInfo } from 'node:net';
import { createHttpServer } from './client-errors.js';
import { BASE_PATH, createService } from './service.js';

export interface WitnessKey {
  key: string;
  plan: 'free' | 'pro' | 'business' | 'enterprise';
  perMinute?: number;
  perDay?: number;
}

export interface RunningService {
  baseUrl: string /* http://127.0.0.1:PORT/v1 */;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';

/** Starts the service on 127.0.0.1 (port 0 = a random free port). Nothing listens on import. */
export async function startExpressService(options: {
  port?: number;
  keys: readonly WitnessKey[];
}): Promise<RunningService> {
  const { app, keylessWindow, uncount } = createService({ keys: options.keys, now: Date.now });
  const server = createHttpServer(app, keylessWindow, uncount);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://${HOST}:${port}${BASE_PATH}`,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error) reject(error);
          else resolve();
        });
        // End keep-alive and in-flight connections too, so the close completes now.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
