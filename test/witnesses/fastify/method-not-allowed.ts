import { METHODS } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { sendError } from './errors.js';

/**
 * Fastify routes only the methods it knows (GET, HEAD, TRACE, DELETE, OPTIONS, PATCH, PUT, POST,
 * QUERY) and answers any other with its 404 handler. The spec: "A known path with a method it does
 * not support answers `405`", so every other method Node's parser accepts is made known (without
 * a body, so nothing is parsed before the 405). CONNECT never reaches Fastify: Node handles it.
 */
export function knowEveryHttpMethod(app: FastifyInstance): void {
  for (const method of METHODS) {
    if (method !== 'CONNECT' && !app.supportedMethods.includes(method)) app.addHttpMethod(method);
  }
}

/**
 * Answers 405 for every method `url` does not support. RFC 9110 §15.5.6: "The origin server MUST
 * generate an Allow header field in a 405 response". `allowed` includes HEAD, which Fastify serves
 * for every GET route (`exposeHeadRoutes`). The answer is sent from an onRequest hook, before any
 * body is read: routing comes before validation.
 */
export function refuseOtherMethods(app: FastifyInstance, url: string, allowed: readonly HTTPMethods[]): void {
  const allow = [...allowed].sort().join(', ');
  const refuse = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    reply.header('allow', allow);
    return sendError(reply, 405, 'method_not_allowed', `${request.method} is not supported here; use ${allow}.`);
  };
  const methods = app.supportedMethods.filter((method) => !(allowed as readonly string[]).includes(method));
  app.route({ method: methods, url, onRequest: refuse, handler: refuse });
}
