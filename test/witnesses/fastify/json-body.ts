import type { FastifyInstance } from 'fastify';
import { InvalidUtf8Error } from './errors.js';

/** `fatal`: malformed bytes throw instead of becoming U+FFFD; `ignoreBOM`: the BOM is left to Fastify's parser, as by default. */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Body parsing. Fastify's defaults are changed in two places only:
 *
 * - Its JSON parser decodes the body with `Buffer#toString('utf8')`, which silently turns
 *   malformed bytes into U+FFFD. The spec: "A request body is UTF-8 JSON: a body that is not
 *   well-formed UTF-8 is not JSON, and is answered `400`". So the body is read as a Buffer,
 *   decoded strictly, and then handed to Fastify's own default JSON parser (same
 *   prototype-poisoning settings, same empty-body and syntax errors).
 * - Its `text/plain` parser is removed. The spec answers 415 when "The request body is not
 *   `application/json`"; with that parser, a text/plain body would reach validation instead.
 */
export function useStrictJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser(
    app.initialConfig.onProtoPoisoning ?? 'error',
    app.initialConfig.onConstructorPoisoning ?? 'error',
  );
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(new InvalidUtf8Error(), undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
