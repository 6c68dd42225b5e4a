import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { challenge, readCredentials, type KeyRegistry } from './auth.js';
import { sendError, sendNotFound } from './errors.js';
import {
  quotaMessage,
  setRateLimitHeaders,
  type Limits,
  type RateWindow,
  type TwoWindowLimiter,
} from './rate-limiter.js';

/**
 * This team's limit on requests without a valid key, per client address (the spec: "A service may
 * count requests without a valid key per client address and answer `429` once that limit is used up").
 */
export const ANONYMOUS_LIMITS: Limits = { perMinute: 30, perDay: 500 };

/** RFC 3986 uri-host [ ":" port ]; reg-name may be empty (RFC 9112 §3.2). */
const HOST_VALUE = /^(?:\[[0-9A-Za-z:._~!$&'()*+,;=-]+\]|[0-9A-Za-z._~!$&'()*+,;=%-]*)(?::[0-9]*)?$/;

/**
 * Runs first for every request: a malformed Host is refused, then the key is authenticated and
 * counted ("Authentication and quota are evaluated first, then routing, then validation").
 */
export class Gate {
  readonly #keys: KeyRegistry;
  readonly #keyLimiter: TwoWindowLimiter;
  readonly #addressLimiter: TwoWindowLimiter;

  constructor(keys: KeyRegistry, keyLimiter: TwoWindowLimiter, addressLimiter: TwoWindowLimiter) {
    this.#keys = keys;
    this.#keyLimiter = keyLimiter;
    this.#addressLimiter = addressLimiter;
  }

  /** The client address's window, without counting (for answers given before any operation). */
  peekAddress(address: string): RateWindow {
    return this.#addressLimiter.peek(address, ANONYMOUS_LIMITS).window;
  }

  /**
   * RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1
   * request message that lacks a Host header field and to any request message that contains more
   * than one Host header field line or a Host header field with an invalid field value."
   * Such a request never became a well-formed HTTP request, so it counts in no window.
   */
  rejectMalformedHost(request: FastifyRequest, reply: FastifyReply): boolean {
    const { rawHeaders, httpVersionMajor, httpVersionMinor } = request.raw;
    const hosts: string[] = [];
    for (let i = 0; i < rawHeaders.length; i += 2) {
      if (rawHeaders[i]?.toLowerCase() === 'host') hosts.push(rawHeaders[i + 1] ?? '');
    }
    const http11 = httpVersionMajor > 1 || (httpVersionMajor === 1 && httpVersionMinor >= 1);
    let problem: string | undefined;
    if (hosts.length === 0 && http11) problem = 'The request has no Host header.';
    else if (hosts.length > 1) problem = 'The request has more than one Host header.';
    else if (hosts.length === 1 && !HOST_VALUE.test(hosts[0] ?? '')) problem = 'The Host header is not a valid host.';
    if (problem === undefined) return false;
    setRateLimitHeaders(reply, this.peekAddress(request.ip));
    reply.header('connection', 'close');
    sendError(reply, 400, 'invalid_request', problem);
    return true;
  }

  /** Counts the request against its key, or answers 401/429. Returns true when the request may proceed. */
  admit(request: FastifyRequest, reply: FastifyReply): boolean {
    const credentials = readCredentials(request.headers.authorization);
    const key = credentials.kind === 'token' ? this.#keys.lookup(credentials.token) : undefined;
    if (key !== undefined) {
      const decision = this.#keyLimiter.consume(key.id, key.limits);
      setRateLimitHeaders(reply, decision.window);
      if (decision.admitted) return true;
      reply.header('retry-after', String(decision.retryAfter));
      sendError(reply, 429, 'rate_limit_exceeded', quotaMessage(decision));
      return false;
    }

    // A 401 counts in no key's window; it counts in the client address's window.
    const decision = this.#addressLimiter.consume(request.ip, ANONYMOUS_LIMITS);
    setRateLimitHeaders(reply, decision.window);
    if (!decision.admitted) {
      reply.header('retry-after', String(decision.retryAfter));
      const prefix = 'Too many requests without a valid API key from this address: the';
      sendError(reply, 429, 'rate_limit_exceeded', quotaMessage(decision, prefix));
      return false;
    }
    reply.header('www-authenticate', challenge(credentials));
    if (credentials.kind === 'none') sendError(reply, 401, 'missing_api_key', credentials.message);
    else sendError(reply, 401, 'invalid_api_key', 'The API key is not valid.');
    return false;
  }

  /**
   * The global onRequest hook. Fastify has already matched the route; an unknown path is answered
   * here, before any body is read, so that routing comes before validation (a POST to an unknown
   * path with a malformed body is a 404, not a 400).
   */
  readonly onRequest = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (this.rejectMalformedHost(request, reply)) return reply;
    if (!this.admit(request, reply)) return reply;
    if (request.is404) return sendNotFound(request, reply);
    return undefined;
  };

  /**
   * Fastify's `frameworkErrors`: a request target the router cannot decode (e.g. `/v1/%zz`).
   * Fastify's default answers 400 with its own body and without running any hook; here the request
   * goes through the same gate first, and the 400 is an `Error`.
   */
  readonly frameworkErrors = (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    if (this.rejectMalformedHost(request, reply)) return;
    if (!this.admit(request, reply)) return;
    const message =
      error.code === 'FST_ERR_BAD_URL'
        ? 'The request target is not a valid URL path.'
        : 'The request target is invalid.';
    sendError(reply, 400, 'invalid_request', message);
  };
}
