import type { ActiveFault, FaultRule } from '../../mocks/domain/faults.js';
import type { KeyState, RemainingQuota } from '../../mocks/domain/key-controls.js';

/** One answer as a test sees it, or the network error a dropped connection gives. */
export type Sent =
  | { status: number; headers: Record<string, string>; text: string; elapsedMs: number }
  | { networkError: string; elapsedMs: number };

/** A failed control: what the host reports for a bad rule or an unknown key (a throw in code, a 4xx from the admin API). */
export interface ControlRefusal {
  refused: string;
  /** The admin API's status; absent where the control is a function call that throws. */
  status?: number;
}

/**
 * The fake's test controls as one host offers them (docs/explanation/design.md section 5): `fake.faults` / `fake.keys`
 * in Node and in the page, `/__admin` over HTTP standalone. The same scenarios run against each.
 */
export interface FaultHost {
  /** Sends one request under the base URL with `free-test-key` unless `key` says otherwise (null: no key). */
  send(
    method: string,
    path: string,
    options?: { key?: string | null; headers?: Record<string, string>; body?: string },
  ): Promise<Sent>;
  addFault(rule: FaultRule): Promise<{ id: string } | ControlRefusal>;
  removeFault(id: string): Promise<boolean>;
  listFaults(): Promise<ActiveFault[]>;
  keys: {
    state(key: string): Promise<KeyState | ControlRefusal>;
    setQuota(key: string, remaining: RemainingQuota): Promise<KeyState | ControlRefusal>;
    ban(key: string, seconds?: number): Promise<KeyState | ControlRefusal>;
    unban(key: string): Promise<KeyState | ControlRefusal>;
    revoke(key: string): Promise<KeyState | ControlRefusal>;
    restore(key: string): Promise<KeyState | ControlRefusal>;
  };
  setClock(epochSeconds: number): Promise<void>;
  advanceClock(seconds: number): Promise<void>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** What a host was started with, for the scenarios that check `reset` keeps it. */
export interface HostStart {
  faults?: FaultRule[];
  latency?: [number, number];
}

/** `send` of a host reached through this process's fetch (msw in Node, or real HTTP). */
export async function sendWithFetch(
  url: string,
  method: string,
  { key = 'free-test-key', headers = {}, body }: Parameters<FaultHost['send']>[2] = {},
): Promise<Sent> {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method,
      headers: { ...(key !== null && { authorization: `Bearer ${key}` }), ...headers },
      ...(body !== undefined && { body }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      text,
      elapsedMs: performance.now() - started,
    };
  } catch (error) {
    return {
      networkError: `${(error as Error).message}: ${String((error as Error).cause)}`,
      elapsedMs: performance.now() - started,
    };
  }
}
