import type { AddressInfo } from 'node:net';
import type { WitnessKey } from './auth.js';
import { buildService } from './service.js';

export type { WitnessKey } from './auth.js';

export interface RunningService {
  baseUrl: string /* http://127.0.0.1:PORT/v1 */;
  close(): Promise<void>;
}

/** Starts the service on 127.0.0.1 (port 0 = a random free port). Nothing listens on import. */
export async function startFastifyService(options: {
  port?: number;
  keys: readonly WitnessKey[];
}): Promise<RunningService> {
  const app = buildService({ keys: options.keys });
  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: async () => {
      await app.close();
    },
  };
}
