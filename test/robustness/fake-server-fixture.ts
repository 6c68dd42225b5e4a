// The standalone fake for attack tests: loopback, a random port, every log line captured, the
// unlimited key added, and a check that it still answers after each attack.
import { expect } from '@jest/globals';
import { SchemaRegistry } from '../../spec/schema-registry.js';
import { specDocument } from '../../spec/spec-artifacts.js';
import { DEFAULT_KEYS } from '../../mocks/domain/plans.js';
import { startFakeServer, type FakeServerOptions, type RunningFakeServer } from '../../mocks/server/index.js';
import { conforming } from '../support/spec-conformance.js';
import type { RawResponse } from './raw-http.js';
import { UNLIMITED_KEY } from './in-process-fake.js';

/** A started fake and the log lines it wrote. */
export interface AttackedServer {
  server: RunningFakeServer;
  logLines: string[];
}

/** Starts the fake on 127.0.0.1:0 with the default keys and {@link UNLIMITED_KEY}; close it in teardown. */
export async function startAttackedServer(options: FakeServerOptions = {}): Promise<AttackedServer> {
  const logLines: string[] = [];
  const server = await startFakeServer({
    host: '127.0.0.1',
    port: 0,
    keys: [...DEFAULT_KEYS, UNLIMITED_KEY],
    log: (line) => logLines.push(line),
    ...options,
  });
  return { server, logLines };
}

/** Proves the server is still up: an ordinary request gets a conforming 200. */
export async function expectStillAnswering(server: RunningFakeServer): Promise<void> {
  const response = await fetch(`${server.baseUrl}/categories`, {
    headers: { authorization: `Bearer ${UNLIMITED_KEY.key}` },
  });
  expect((await conforming('listCategories', response)).status).toBe(200);
}

const validateError = new SchemaRegistry(specDocument()).validator('Error');

/** Asserts a raw response is the spec's `Error` with this status and code, as JSON. */
export function expectErrorResponse(response: RawResponse | undefined, status: number, code: string): void {
  expect(response).toBeDefined();
  expect(response!.status).toBe(status);
  expect(response!.headers['content-type']).toMatch(/^application\/json/);
  expect(validateError(response!.json)).toBe(true);
  expect(response!.json).toMatchObject({ code, status });
}
