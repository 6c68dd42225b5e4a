import type { AdjustableClock } from '../domain/clock.js';
import type { DeprecationPolicy } from '../domain/deprecation.js';
import type { FakeStore } from '../domain/fake-store.js';
import type { SchemaValidators } from '../../spec/schema-registry.js';
import type { OverrideRegistry } from './overrides.js';

/** What every resolver reads: the domain objects of one fake. */
export interface FakeContext {
  baseUrl: string;
  /** The path of `baseUrl` without a trailing slash (`/v1`): what operations' paths are relative to. */
  basePath: string;
  /** The fake's state: records, access, fault rules; `store.ready()` settles once the seed is loaded. */
  store: FakeStore;
  schemas: SchemaValidators;
  clock: AdjustableClock;
  petsDeprecation: DeprecationPolicy;
  /** Test control: the per-test overrides (`fake.overrides`). */
  overrides: OverrideRegistry;
  /** Test control: the delay before this answer, drawn from the latency range (0 without one). */
  latencyMs(): number;
}

// `Fake.handle(request, address)` records the peer here; msw hands resolvers the very same
// Request object, and a WeakMap cannot be spoofed by a client the way a header could.
const clientAddresses = new WeakMap<Request, string>();

/** Records the network address a request came from, for the anonymous per-address bucket. */
export function setClientAddress(request: Request, address: string): void {
  clientAddresses.set(request, address);
}

/** The address recorded for a request; in-page and in-process hosts have one client: `local`. */
export function clientAddressOf(request: Request): string {
  return clientAddresses.get(request) ?? 'local';
}
