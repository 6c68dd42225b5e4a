import { timingSafeEqual } from 'node:crypto';
import { apiError, type ApiError } from '../domain/errors.js';
import { payloadTooLargeError } from '../domain/request-body.js';
import { isConfigError } from '../domain/config-error.js';
import { parseFaultRules, type FaultRule } from '../domain/faults.js';
import { StoreUnavailableError, storeUnavailable } from '../domain/fake-store.js';
import { UnknownKeyError } from '../domain/key-controls.js';
import type { Fake } from '../fake.js';

/** Who may use `/__admin`: anyone on a loopback-bound fake, else only holders of the token. */
export interface AdminAccess {
  loopback: boolean;
  token?: string;
}

/** An answer of the admin API. */
export interface AdminAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

// The clock stays where every header the fake derives from it is still what the spec allows: before 1970
// X-RateLimit-Reset turns negative; past Date's range (year 275760) it is not a number at all.
const EARLIEST_EPOCH_SECONDS = 0;
const LATEST_EPOCH_SECONDS = Date.UTC(9999, 11, 31, 23, 59, 59) / 1000;

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/;

/** Whether a host name or address is loopback-only. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host);
}

/** Whether an `Origin` header names a page served from this machine (`null` and garbage do not). */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    return isLoopbackHost(new URL(origin).hostname);
  } catch {
    return false;
  }
}

function error(failure: ApiError, headers?: Record<string, string>): AdminAnswer {
  return { status: failure.status, body: failure, ...(headers && { headers }) };
}

function tokenMatches(authorization: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(authorization ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** One request to the admin API, as the server read it. */
export interface AdminRequest {
  method: string;
  path: string;
  authorization?: string;
  origin?: string;
  /** The JSON body, or undefined when there was none or it was not JSON (then {@link bodyError} says why). */
  body: () => unknown;
  bodyError?: ApiError;
  bodyOverLimit?: boolean;
}

/**
 * The admin API: test control of the fake, outside `/v1` (docs/explanation/design.md section 5): reset, clock, fault
 * rules and key scenarios; see {@link ADMIN_ROUTES}. Off when bound beyond loopback without a token;
 * the token, when set, is always required. Without a token it is also off for browser pages of other
 * origins: any site the developer visits can send a request to 127.0.0.1 (or rebind its own name to
 * it), and browsers name that site in `Origin`.
 */
export async function answerAdmin(fake: Fake, access: AdminAccess, request: AdminRequest): Promise<AdminAnswer> {
  if (access.token === undefined && !access.loopback) {
    return error(apiError('not_found', `No operation at ${request.method} ${request.path}.`));
  }
  if (access.token === undefined && request.origin !== undefined && !isLoopbackOrigin(request.origin)) {
    return error(
      apiError(
        'not_found',
        `No operation at ${request.method} ${request.path} for a page of another origin; the admin API needs --admin-token for that.`,
      ),
    );
  }
  if (access.token !== undefined && !tokenMatches(request.authorization, access.token)) {
    return error(apiError('invalid_api_key', 'The admin API needs Authorization: Bearer <admin token>.'), {
      'WWW-Authenticate': 'Bearer realm="petstore-admin"',
    });
  }
  for (const route of ADMIN_ROUTES) {
    const match = route.pattern.exec(request.path);
    if (!match) continue;
    const handler = route.methods[request.method];
    const allow = Object.keys(route.methods).join(', ');
    if (!handler)
      return error(
        apiError('method_not_allowed', `${request.method} is not allowed on ${request.path}; use ${allow}.`),
        { Allow: allow },
      );
    if (request.bodyOverLimit) return error(payloadTooLargeError());
    if (request.bodyError && route.takesBody?.includes(request.method)) return error(request.bodyError);
    let param: string;
    try {
      param = decodeURIComponent(match[1] ?? '');
    } catch {
      return error(apiError('invalid_request', `${request.path} is not a valid percent-encoded path.`));
    }
    try {
      return await handler(fake, param, request.body());
    } catch (failure) {
      if (failure instanceof UnknownKeyError) return error(apiError('not_found', failure.message));
      if (failure instanceof StoreUnavailableError) return error(storeUnavailable(), { 'Retry-After': '1' });
      if (isConfigError(failure))
        return error(
          apiError(
            'invalid_request',
            `${failure.source}: ${failure.entry ? `${failure.entry}: ` : ''}${failure.problem}.`,
          ),
        );
      throw failure;
    }
  }
  return error(apiError('not_found', `No operation at ${request.method} ${request.path}.`));
}

type AdminHandler = (fake: Fake, param: string, body: unknown) => AdminAnswer | Promise<AdminAnswer>;

interface AdminRoute {
  pattern: RegExp;
  methods: Record<string, AdminHandler>;
  /** Methods whose JSON body is read; a body that is not JSON is refused for them only. */
  takesBody?: string[];
}

const ok = (body: unknown): AdminAnswer => ({ status: 200, body });

/** Every admin operation; docs/reference/admin-api.md lists the same. */
export const ADMIN_ROUTES: readonly AdminRoute[] = [
  { pattern: /^\/__admin\/reset$/, methods: { POST: async (fake) => (await fake.reset(), { status: 204 }) } },
  {
    pattern: /^\/__admin\/clock$/,
    methods: { POST: async (fake, _, body) => moveClock(fake, body) },
    takesBody: ['POST'],
  },
  {
    pattern: /^\/__admin\/faults$/,
    methods: {
      GET: async (fake) => ok(await fake.faults.list()),
      POST: (fake, _, body) => addFaults(fake, body),
      DELETE: async (fake) => (await fake.faults.clear(), { status: 204 }),
    },
    takesBody: ['POST'],
  },
  {
    pattern: /^\/__admin\/faults\/([^/]+)$/,
    methods: {
      GET: async (fake, id) => {
        const rule = (await fake.faults.list()).find((held) => held.id === id);
        return rule ? ok(rule) : error(apiError('not_found', `No fault rule has id "${id}".`));
      },
      DELETE: async (fake, id) =>
        (await fake.faults.remove(id))
          ? { status: 204 }
          : error(apiError('not_found', `No fault rule has id "${id}".`)),
    },
  },
  {
    // What the clients sent (the journal): oldest first, keys never shown (their plan only).
    pattern: /^\/__admin\/requests$/,
    methods: {
      GET: (fake) => ok(fake.requests.all()),
      DELETE: (fake) => (fake.requests.clear(), { status: 204 }),
    },
  },
  { pattern: /^\/__admin\/keys\/([^/]+)$/, methods: { GET: async (fake, key) => ok(await fake.keys.state(key)) } },
  {
    pattern: /^\/__admin\/keys\/([^/]+)\/quota$/,
    methods: {
      PUT: async (fake, key, body) =>
        ok(await fake.keys.setQuota(key, body as never, `PUT /__admin/keys/${key}/quota: body`)),
    },
    takesBody: ['PUT'],
  },
  {
    pattern: /^\/__admin\/keys\/([^/]+)\/ban$/,
    methods: {
      POST: async (fake, key, body) =>
        ok(await fake.keys.ban(key, (body ?? {}) as never, `POST /__admin/keys/${key}/ban: body`)),
      DELETE: async (fake, key) => ok(await fake.keys.unban(key)),
    },
    takesBody: ['POST'],
  },
  {
    pattern: /^\/__admin\/keys\/([^/]+)\/revoke$/,
    methods: { POST: async (fake, key) => ok(await fake.keys.revoke(key)) },
  },
  {
    pattern: /^\/__admin\/keys\/([^/]+)\/restore$/,
    methods: { POST: async (fake, key) => ok(await fake.keys.restore(key)) },
  },
];

/** `POST /__admin/faults`: one rule, or an array added all or none; 201 with what was added. */
async function addFaults(fake: Fake, body: unknown): Promise<AdminAnswer> {
  if (body === undefined)
    return error(
      apiError(
        'invalid_request',
        'body: send a fault rule { match?, effect, times?, probability?, seed?, beforeAuth? } or an array of them as JSON.',
      ),
    );
  const source = 'POST /__admin/faults: body';
  const rules = Array.isArray(body) ? parseFaultRules(body, source) : [body as FaultRule];
  const added: string[] = [];
  try {
    for (const rule of rules) added.push((await fake.faults.add(rule, source)).id);
  } catch (failure) {
    for (const id of added) await fake.faults.remove(id);
    throw failure;
  }
  const listed = (await fake.faults.list()).filter((rule) => added.includes(rule.id));
  return {
    status: 201,
    body: Array.isArray(body) ? listed : listed[0],
    headers: { Location: `/__admin/faults/${encodeURIComponent(added[0]!)}` },
  };
}

/** `POST /__admin/clock` ({ advanceSeconds } or { epochSeconds }). */
async function moveClock(fake: Fake, body: unknown): Promise<AdminAnswer> {
  await fake.store.syncClock();
  const keys = body && typeof body === 'object' ? Object.keys(body) : [];
  const [field] = keys;
  const value = field === undefined ? undefined : (body as Record<string, unknown>)[field];
  if (
    keys.length !== 1 ||
    (field !== 'advanceSeconds' && field !== 'epochSeconds') ||
    typeof value !== 'number' ||
    !Number.isFinite(value)
  ) {
    return error(
      apiError(
        'invalid_request',
        'body: send exactly one of {"advanceSeconds": n} or {"epochSeconds": n}, n a finite number.',
      ),
    );
  }
  const target = field === 'advanceSeconds' ? fake.clock.now() / 1000 + value : value;
  if (!(target >= EARLIEST_EPOCH_SECONDS && target <= LATEST_EPOCH_SECONDS)) {
    return error(
      apiError(
        'invalid_request',
        `body: ${field} would move the clock outside 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z.`,
      ),
    );
  }
  if (field === 'advanceSeconds') fake.clock.advance(value);
  else fake.clock.setEpochSeconds(value);
  await fake.store.setClockOffset(fake.clock.offsetMs);
  return ok({ epochSeconds: Math.floor(fake.clock.now() / 1000) });
}
