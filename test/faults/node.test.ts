import { setupFake } from '../../mocks/node/index.js';
import { UnknownKeyError } from '../../mocks/domain/key-controls.js';
import { isConfigError } from '../../mocks/domain/config-error.js';
import { sendWithFetch, type ControlRefusal, type FaultHost, type HostStart } from './fault-host.js';
import { describeFaultControls } from './fault-scenarios.js';

// The Node host: msw's setupServer intercepting this process's fetch; the controls are `fake.faults` and `fake.keys`.
const baseUrl = 'http://petstore.test/v1';

function refusalOf(error: unknown): ControlRefusal {
  if (isConfigError(error) || error instanceof UnknownKeyError) return { refused: error.message };
  throw error;
}

async function control<T>(act: () => T | Promise<T>): Promise<T | ControlRefusal> {
  try {
    return await act();
  } catch (error) {
    return refusalOf(error);
  }
}

async function startNodeHost(config: HostStart): Promise<FaultHost> {
  const { server, fake } = setupFake({ baseUrl, ...config });
  server.listen({ onUnhandledRequest: 'error' });
  return {
    send: (method, path, options) => sendWithFetch(`${baseUrl}${path}`, method, options),
    addFault: (rule) => control(async () => ({ id: (await fake.faults.add(rule)).id })),
    removeFault: async (id) => fake.faults.remove(id),
    listFaults: async () => fake.faults.list(),
    keys: {
      state: (key) => control(() => fake.keys.state(key)),
      setQuota: (key, remaining) => control(() => fake.keys.setQuota(key, remaining)),
      ban: (key, seconds) => control(() => fake.keys.ban(key, seconds === undefined ? {} : { seconds })),
      unban: (key) => control(() => fake.keys.unban(key)),
      revoke: (key) => control(() => fake.keys.revoke(key)),
      restore: (key) => control(() => fake.keys.restore(key)),
    },
    setClock: async (epochSeconds) => fake.clock.setEpochSeconds(epochSeconds),
    advanceClock: async (seconds) => fake.clock.advance(seconds),
    reset: () => fake.reset(),
    close: async () => server.close(),
  };
}

describeFaultControls('Node (setupFake)', startNodeHost);
