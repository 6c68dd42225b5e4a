import Fastify, { type FastifyInstance } from 'fastify';
import { KeyRegistry } from './auth.js';
import { categoryRoutes } from './categories.js';
import { PetStore } from './data.js';
import { createClientErrorHandler, handleError, sendNotFound } from './errors.js';
import { Gate } from './gate.js';
import { useStrictJsonBodies } from './json-body.js';
import { knowEveryHttpMethod } from './method-not-allowed.js';
import { orderRoutes } from './orders.js';
import { addDeprecationHeaders, petRoutes } from './pets.js';
import { TwoWindowLimiter } from './rate-limiter.js';
import type { WitnessKey } from './auth.js';

export interface ServiceOptions {
  readonly keys: readonly WitnessKey[];
  /** The clock, in epoch milliseconds (for the quota windows and the sunset). */
  readonly now?: () => number;
}

/** Builds the Pet Store service (not listening). All state lives in this instance. */
export function buildService(options: ServiceOptions): FastifyInstance {
  const now = options.now ?? Date.now;
  const gate = new Gate(new KeyRegistry(options.keys), new TwoWindowLimiter(now), new TwoWindowLimiter(now));
  const store = new PetStore();

  const app = Fastify({
    // close() must end open connections, keep-alive and in-flight ones alike.
    forceCloseConnections: true,
    // Fastify's ajv defaults are `coerceTypes: 'array'` and `removeAdditional: true`: `{"name": 5}`
    // would be stored as "5" and unknown properties silently dropped. The spec's NewCategory has
    // `name: { type: string }` and `additionalProperties: false`, and an invalid body is a 400.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false } },
    routerOptions: {
      // Fastify's default (100) answers a longer path parameter with its own 414 body. A petId of
      // any length is a known path, answered 400 "The pet id is not a positive integer"; Node's
      // 16 KiB header limit bounds the request line anyway.
      maxParamLength: 16_384,
    },
    // Node answers a Host-less HTTP/1.1 request itself, with an empty 400 and no X-RateLimit-*;
    // the spec: "Every error body is an `Error`" and "Every response carries X-RateLimit-*".
    // Gate.rejectMalformedHost answers it instead (and also the duplicate and invalid Host that
    // RFC 9112 §3.2 says a server MUST refuse, which Node lets through).
    http: { requireHostHeader: false },
    clientErrorHandler: createClientErrorHandler((address) => gate.peekAddress(address)),
    frameworkErrors: gate.frameworkErrors,
  });

  useStrictJsonBodies(app);
  knowEveryHttpMethod(app);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(async (request, reply) => sendNotFound(request, reply));
  app.addHook('onRequest', gate.onRequest);
  app.addHook('onSend', addDeprecationHeaders);

  void app.register(
    async (api) => {
      categoryRoutes(api, store);
      petRoutes(api, store, now);
      orderRoutes(api, store);
    },
    { prefix: '/v1' },
  );
  return app;
}
