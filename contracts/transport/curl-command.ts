import { isUtf8 } from 'node:buffer';
import type { SentRequest } from '../core/exchange.js';
import { fieldBytes, rawReproduction, rawRequestOf } from './request-bytes.js';
import { shellWord, withSecret, type WordPart } from './shell-word.js';

const KEY = '${PETSTORE_API_KEY}';
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Text of the request line or of a header as the senders write it (fieldBytes: latin1, so U+00A0 is the
 * one byte 0xA0), not as UTF-8: what curl sends is then what the suite sent.
 */
function onTheWire(parts: readonly WordPart[]): WordPart[] {
  return parts.map((part) =>
    'literal' in part && typeof part.literal === 'string' && !PRINTABLE_ASCII.test(part.literal)
      ? { literal: fieldBytes(part.literal) }
      : part,
  );
}

/**
 * The URL quoted for the shell. One carrying the key (a check sends it in the query on purpose), as
 * written or percent-encoded, shows the key as the variable, so the key never shows.
 */
function quotedUrl(url: string, secret: string | undefined): string {
  const spelt = secret && [secret, encodeURIComponent(secret)].find((form) => url.includes(form));
  return shellWord(onTheWire(spelt ? withSecret(url, spelt, KEY) : [{ literal: url }]));
}

/**
 * curl's flags that keep the URL as sent: no globbing of `[]{}` (curl would read `[1-3]` as a range), and
 * no squashing of `/../` or `/./` segments.
 */
function urlFlags(url: string): string[] {
  // The path as written: URL's parser would already have removed the segments curl must keep.
  const pathname = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').split(/[?#]/)[0] ?? '';
  return [
    ...(/[[\]{}]/.test(url) ? ['--globoff'] : []),
    ...(/(^|\/)\.\.?(\/|$)/.test(pathname) ? ['--path-as-is'] : []),
  ];
}

/**
 * One header field as curl's `-H` argument: the key as the variable, a value derived from it as the
 * expression given. An empty value is `Name;` (curl would drop `Name:` from the request).
 */
function headerWord(name: string, value: string, shown: string | undefined, secret: string | undefined): string {
  if (value === '' && shown === undefined) return shellWord(onTheWire([{ literal: `${name};` }]));
  if (secret && value.includes(secret)) return shellWord(onTheWire(withSecret(`${name}: ${value}`, secret, KEY)));
  if (shown !== undefined) return shellWord([...onTheWire([{ literal: `${name}: ` }]), { expression: shown }]);
  return shellWord(onTheWire([{ literal: `${name}: ${value}` }]));
}

/** curl's flags for a request line or framing of the request's own (HTTP/1.0, absolute-form, chunks). */
function wireFlags({ wire, url }: SentRequest): string[] {
  if (!wire) return [];
  const { origin, pathname, search } = new URL(url);
  return [
    ...(wire.version === '1.0' ? ['--http1.0'] : []),
    ...(wire.target === 'absolute'
      ? ['--request-target', shellWord(onTheWire([{ literal: `${origin}${pathname}${search}` }]))]
      : []),
    ...(wire.chunked ? ['-H', shellWord([{ literal: 'Transfer-Encoding: chunked' }])] : []),
  ];
}

/**
 * Fields curl adds of its own that the suite did not send, removed (`-H 'Name:'`): `Accept: *\/*` when
 * the request had none, and the form media type `--data-binary` declares for a body sent without one.
 */
function curlDefaultsRemoved(request: SentRequest): string[] {
  const names = new Set(Object.keys(request.headers).map((name) => name.toLowerCase()));
  return [
    ...(names.has('accept') ? [] : ['Accept:']),
    ...(request.body !== undefined && !names.has('content-type') ? ['Content-Type:'] : []),
  ].flatMap((field) => ['-H', shellWord([{ literal: field }])]);
}

/**
 * The request as a `curl` command that sends the same bytes in bash; the API key is replaced by
 * `${PETSTORE_API_KEY}`. The request line and header fields go out as the suite's senders write them
 * (one byte per character up to U+00FF); a field sent twice (a value holding a newline) is two `-H`;
 * text that is not printable ASCII is `$'...'`-quoted; a body that is not UTF-8 (or holds NUL) goes
 * through printf. Beside Host and the framing, only curl's own User-Agent differs from what was sent. A
 * form curl cannot send (a trailer section, a body without framing) is printed as the bytes themselves.
 * @example curlCommand(sent, 'free-test-key') // curl -X GET 'http://…/v1/categories' -H "Authorization: Bearer ${PETSTORE_API_KEY}"
 */
export function curlCommand(request: SentRequest, secret?: string): string {
  // A trailer section, or a body with no framing ended by the close: curl sends neither, so the bytes
  // the raw sender wrote, from the same writer.
  const { trailers, unframed } = request.wire ?? {};
  if (trailers !== undefined || unframed)
    return rawReproduction(new URL(request.url).origin, [rawRequestOf(request)], {
      ...(secret && { secret }),
      halfClose: unframed === true,
    });
  const method = /^[A-Za-z0-9._-]+$/.test(request.method)
    ? request.method
    : shellWord(onTheWire([{ literal: request.method }]));
  // HEAD as -I: with `-X HEAD` curl waits for the body the Content-Length announces.
  const verb = request.method === 'HEAD' ? ['-I'] : ['-X', method];
  const parts = ['curl', ...verb, quotedUrl(request.url, secret), ...urlFlags(request.url), ...wireFlags(request)];
  for (const [name, value] of Object.entries(request.headers)) {
    const shown = request.shown?.[name];
    const fields = value.split('\n');
    // A field sent twice carries the key as it is (the spellings derived from the key are single fields).
    for (const field of fields)
      parts.push('-H', headerWord(name, field, fields.length > 1 ? undefined : shown, secret));
  }
  parts.push(...curlDefaultsRemoved(request));
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
