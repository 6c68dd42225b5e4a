import type { ServerResponse } from 'node:http';
import express, { type Express, type Response } from 'express';
import helmet from 'helmet';
import { authAndQuota, KeyRegistry, setRateLimitHeaders, type KeyConfig } from './auth.js';
import { createCategory, listCategories, MAX_BODY_BYTES, readBody } from './categories.js';
import { deprecationHeaders } from './deprecation.js';
import { errorHandler, methodNotAllowed, notFound, sendError } from './errors.js';
import { getPetById } from './pets.js';
import { fullMinuteWindow, PLAN_LIMITS, RateLimiter, type QuotaTicket, type WindowReport } from './rate-limiter.js';
import { Store } from './store.js';

export interface ServiceOptions {
  readonly keys: readonly KeyConfig[];
  /** Epoch milliseconds; Date.now in service, replaceable to reach the sunset or a window's end. */
  readonly now: () => number;
}

export interface Service {
  readonly app: Express;
  /** What X-RateLimit-* report on answers that count in no key's window. */
  readonly keylessWindow: () => WindowReport;
  /** Takes back the count of a request whose response is abandoned for a malformed message. */
  readonly uncount: (res: ServerResponse) => void;
}

/** The base address's path, from `servers[].url`. */
export const BASE_PATH = '/v1';

export function createService(options: ServiceOptions): Service {
  const { now } = options;
  const keys = new KeyRegistry(options.keys);
  const limiter = new RateLimiter(now);
  const store = new Store();

  /*
   * The service keeps no limit on requests without a valid key (the spec: a service "may" keep
   * one; this one does not). A 401 "counts in no key's window", and its X-RateLimit-* must still
   * describe a window: they report the free plan's per-minute allowance, full (nothing is ever
   * counted against it), ending with the current UTC minute. That promises no more than every
   * key gets and never tells a keyless client it has to wait.
   */
  const keylessWindow = (): WindowReport => fullMinuteWindow(PLAN_LIMITS.free.perMinute, now());
  const ensureRateLimitHeaders = (res: Response): void => {
    if (!res.hasHeader('X-RateLimit-Limit')) setRateLimitHeaders(res, keylessWindow());
  };

  const app = express();
  // Express matches paths case-insensitively and with an optional trailing slash by default. The spec:
  // "An unknown path answers `404`", and RFC 3986 §6.2.2.1: path components "are assumed to be
  // case-sensitive"; so `/Categories` and `/categories/` are unknown paths (the contract suite's
  // near_miss_paths_not_found found both answered 200).
  app.set('case sensitive routing', true);
  app.set('strict routing', true);

  // helmet's defaults, all but one: RFC 6797 §7.2 "An HSTS Host MUST NOT include the STS header
  // field in HTTP responses conveyed over non-secure transport." So Strict-Transport-Security,
  // with helmet's default value, goes only on responses over TLS (req.secure; 'trust proxy' is
  // left at Express's default, off).
  const hsts = helmet.strictTransportSecurity();
  app.use(helmet({ strictTransportSecurity: false }));
  app.use((req, res, next) => {
    if (req.secure) hsts(req, res, next);
    else next();
  });

  // RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to ... any request message
  // that contains more than one Host header field line". Node's http keeps the first of two and goes on
  // (the contract suite's host_field_required_once found it); a request without Host it refuses itself.
  app.use((req, res, next) => {
    const hosts = req.rawHeaders.filter((name, index) => index % 2 === 0 && name.toLowerCase() === 'host');
    if (hosts.length > 1) sendError(res, 400, 'invalid_request', 'The request has more than one Host field.');
    else next();
  });

  // Before authentication, so the 401 and 429 of the deprecated operation carry its headers too.
  app.use(deprecationHeaders);

  // "Authentication and quota are evaluated first, then routing, then validation."
  app.use(authAndQuota({ keys, limiter, keylessWindow }));

  const api = express.Router({ caseSensitive: true, strict: true });
  api
    .route('/categories')
    .get(listCategories(store))
    .post(readBody, createCategory(store))
    .all(methodNotAllowed(['GET', 'HEAD', 'POST']));
  api
    .route('/pets/:petId')
    .get(getPetById(store, now))
    .all(methodNotAllowed(['GET', 'HEAD']));
  api
    .route('/store/orders')
    .get((_req, res) => {
      res.json(store.listOrders());
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
  app.use(BASE_PATH, api);

  // Any other path, under the base address or not, is unknown.
  app.use(notFound);
  app.use(errorHandler({ ensureHeaders: ensureRateLimitHeaders, maxBodyBytes: MAX_BODY_BYTES }));

  const uncount = (res: ServerResponse): void => {
    const { locals } = res as Partial<Response>;
    const ticket = locals?.quotaTicket as QuotaTicket | undefined;
    if (ticket === undefined || locals === undefined) return;
    locals.quotaTicket = undefined;
    limiter.uncount(ticket);
  };

  return { app, keylessWindow, uncount };
}
