import { isUtf8 } from 'node:buffer';
import type { SentRequest } from '../core/exchange.js';
import { shellWord, withSecret } from './shell-word.js';

const KEY = '${PETSTORE_API_KEY}';

/**
 * The URL quoted for the shell. One carrying the key (a check sends it in the query on purpose), as
 * written or percent-encoded, shows the key as the variable, so the key never shows.
 */
function quotedUrl(url: string, secret: string | undefined): string {
  const spelt = secret && [secret, encodeURIComponent(secret)].find((form) => url.includes(form));
  return shellWord(spelt ? withSecret(url, spelt, KEY) : [{ literal: url }]);
}

/** One header field as curl's `-H` argument: the key as the variable, a value derived from it as the expression given. */
function headerWord(name: string, value: string, shown: string | undefined, secret: string | undefined): string {
  if (secret && value.includes(secret)) return shellWord(withSecret(`${name}: ${value}`, secret, KEY));
  if (shown !== undefined) return shellWord([{ literal: `${name}: ` }, { expression: shown }]);
  return shellWord([{ literal: `${name}: ${value}` }]);
}

/** curl's flags for a request line or framing of the request's own (HTTP/1.0, absolute-form, chunks). */
function wireFlags({ wire, url }: SentRequest): string[] {
  if (!wire) return [];
  const { origin, pathname, search } = new URL(url);
  return [
    ...(wire.version === '1.0' ? ['--http1.0'] : []),
    ...(wire.target === 'absolute'
      ? ['--request-target', shellWord([{ literal: `${origin}${pathname}${search}` }])]
      : []),
    ...(wire.chunked ? ['-H', shellWord([{ literal: 'Transfer-Encoding: chunked' }])] : []),
  ];
}

/**
 * The request as a `curl` command that sends the same bytes in bash; the API key is replaced by
 * `${PETSTORE_API_KEY}`. A field sent twice (a value holding a newline) is two `-H`; text that is not
 * printable ASCII is `$'...'`-quoted; a body that is not UTF-8 (or holds NUL) goes through printf.
 * @example curlCommand(sent, 'free-test-key') // curl -X GET 'http://…/v1/categories' -H "Authorization: Bearer ${PETSTORE_API_KEY}"
 */
export function curlCommand(request: SentRequest, secret?: string): string {
  const method = /^[A-Za-z0-9._-]+$/.test(request.method) ? request.method : shellWord([{ literal: request.method }]);
  const parts = ['curl', '-X', method, quotedUrl(request.url, secret), ...wireFlags(request)];
  for (const [name, value] of Object.entries(request.headers)) {
    const shown = request.shown?.[name];
    const fields = value.split('\n');
    // A field sent twice carries the key as it is (the spellings derived from the key are single fields).
    for (const field of fields)
      parts.push('-H', headerWord(name, field, fields.length > 1 ? undefined : shown, secret));
  }
  const { body } = request;
  if (body instanceof Uint8Array && (!isUtf8(body) || body.includes(0))) {
    // Bytes that are not UTF-8 (a test of the service's decoding) survive only as printf escapes, read
    // through a file (bash process substitution) so NUL bytes and trailing newlines arrive too.
    const escaped = [...body].map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join('');
    parts.push('--data-binary', `@<(printf '${escaped}')`);
  } else if (body !== undefined) {
    const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
    // A key sent in the body (a check tries it there on purpose) shows as the variable, as in a header.
    const spelt = secret && [secret, encodeURIComponent(secret)].find((form) => text.includes(form));
    parts.push('--data-binary', shellWord(spelt ? withSecret(text, spelt, KEY) : [{ literal: text }]));
  }
  return parts.join(' ');
}
