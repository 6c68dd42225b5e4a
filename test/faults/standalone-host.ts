import { startFakeServer, type FakeServerOptions } from '../../mocks/server/index.js';
import { sendWithFetch, type ControlRefusal, type FaultHost, type HostStart } from './fault-host.js';

/** The standalone host: real HTTP to a server on a random loopback port; the controls are /__admin. */
export async function startStandaloneHost(config: HostStart, options: FakeServerOptions = {}): Promise<FaultHost> {
  const server = await startFakeServer({ port: 0, ...options, ...config });
  const admin = async <T>(method: string, path: string, body?: unknown): Promise<T | ControlRefusal> => {
    const response = await fetch(`${server.url}/__admin${path}`, {
      method,
      ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (response.status >= 400)
      return { refused: (JSON.parse(text) as { message: string }).message, status: response.status };
    return (text === '' ? undefined : JSON.parse(text)) as T;
  };
  const key = (name: string) => `/keys/${encodeURIComponent(name)}`;
  return {
    send: (method, path, options) => sendWithFetch(`${server.baseUrl}${path}`, method, options),
    addFault: (rule) => admin('POST', '/faults', rule),
    removeFault: async (id) =>
      (await fetch(`${server.url}/__admin/faults/${encodeURIComponent(id)}`, { method: 'DELETE' })).status === 204,
    listFaults: async () => (await (await fetch(`${server.url}/__admin/faults`)).json()) as never,
    keys: {
      state: (name) => admin('GET', key(name)),
      setQuota: (name, remaining) => admin('PUT', `${key(name)}/quota`, remaining),
      ban: (name, seconds) => admin('POST', `${key(name)}/ban`, seconds === undefined ? undefined : { seconds }),
      unban: (name) => admin('DELETE', `${key(name)}/ban`),
      revoke: (name) => admin('POST', `${key(name)}/revoke`),
      restore: (name) => admin('POST', `${key(name)}/restore`),
    },
    setClock: async (epochSeconds) => void (await admin('POST', '/clock', { epochSeconds })),
    advanceClock: async (seconds) => void (await admin('POST', '/clock', { advanceSeconds: seconds })),
    reset: async () => void (await admin('POST', '/reset')),
    close: () => server.close(),
  };
}
