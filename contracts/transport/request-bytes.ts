import type { SentRequest } from '../core/exchange.js';

// The one writer of a request's bytes on a raw socket: the raw sender, the connection checks and every
// reproduction a finding prints (curl's, when curl cannot send the form) go through `rawRequestBytes`,
// so what a report shows is what went out.

/**
 * Text of a request line or header field as the bytes that go out: a character up to U+00FF as one byte
 * (latin1: what Node's http and fetch write for a JS string, so `Bearer k\u00a0` ends in the byte 0xA0),
 * one above as its UTF-8 bytes (Node's client refuses those; the raw sender writes them so). The one
 * encoding the senders and the printed `curl` share.
 * @example fieldBytes('Bearer k\u00a0') // <Buffer ... 6b a0>
 */
export function fieldBytes(text: string): Buffer {
  if (!/[\u0100-\uffff]/.test(text)) return Buffer.from(text, 'latin1');
  return Buffer.concat([...text].map((char) => Buffer.from(char, char.codePointAt(0)! > 0xff ? 'utf8' : 'latin1')));
}

/**
 * One request as bytes of HTTP/1.x, written exactly as given: the header fields in order (none added, a
 * `Host` too, so it may be missing or twice), then the body in the framing named: `length` adds
 * `Content-Length`; `chunked` adds `Transfer-Encoding: chunked` and ends with the `trailers` given (RFC
 * 9112 §7.1.2); `none` sends the bytes with no framing at all (RFC 9112 §6.3: a request without either
 * field has no content, so what follows is not its body).
 */
export interface RawRequest {
  method: string;
  /** The request target as written: `/v1/categories` or `http://host/v1/categories`. */
  target: string;
  version?: '1.0' | '1.1';
  headers: ReadonlyArray<readonly [string, string]>;
  body?: {
    bytes: string | Uint8Array;
    framing: 'length' | 'chunked' | 'none';
    trailers?: ReadonlyArray<readonly [string, string]>;
  };
}

const fieldLines = (fields: ReadonlyArray<readonly [string, string]>) =>
  fields.map(([name, value]) => `${name}: ${value}\r\n`).join('');

/** A body in two chunks and the last (RFC 9112 §7.1), so a reader must join them; then the trailer section. */
function inChunks(content: Buffer, trailers: ReadonlyArray<readonly [string, string]>): Buffer {
  const half = Math.ceil(content.length / 2);
  const chunks = [content.subarray(0, half), content.subarray(half)].filter((chunk) => chunk.length > 0);
  return Buffer.concat([
    ...chunks.flatMap((chunk) => [Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]),
    fieldBytes(`0\r\n${fieldLines(trailers)}\r\n`),
  ]);
}

/**
 * The bytes of a {@link RawRequest}.
 * @example rawRequestBytes({ method: 'GET', target: '/v1/categories', headers: [['Host', 'h']] })
 */
export function rawRequestBytes(request: RawRequest): Buffer {
  const { body } = request;
  const fields: Array<readonly [string, string]> = [...request.headers];
  const content = body === undefined ? Buffer.alloc(0) : Buffer.from(body.bytes);
  if (body?.framing === 'length') fields.push(['Content-Length', String(content.length)]);
  if (body?.framing === 'chunked') fields.push(['Transfer-Encoding', 'chunked']);
  const head = fieldBytes(
    `${request.method} ${request.target} HTTP/${request.version ?? '1.1'}\r\n${fieldLines(fields)}\r\n`,
  );
  if (body?.framing !== 'chunked') return Buffer.concat([head, content]);
  return Buffer.concat([head, inChunks(content, body.trailers ?? [])]);
}

/**
 * A request as the suite sent it ({@link SentRequest}) as a {@link RawRequest} on a connection of its
 * own: `Host` first, its fields (a value holding `\n` as several lines of that name), `Trailer` naming a
 * trailer section's fields, `Connection: close`, then the body in the framing its wire form names.
 * @example rawRequestOf({ method: 'GET', url: 'http://127.0.0.1:4010/v1/categories', headers: {} })
 */
export function rawRequestOf(sent: SentRequest): RawRequest {
  const url = new URL(sent.url);
  const { version, target, chunked, trailers, unframed } = sent.wire ?? {};
  const trailerFields = Object.entries(trailers ?? {});
  const headers: Array<readonly [string, string]> = [['Host', url.host]];
  for (const [name, value] of Object.entries(sent.headers))
    for (const one of value.split('\n')) headers.push([name, one]);
  // RFC 9110 §6.6.2: a sender SHOULD name the fields it will send in a trailer section.
  if (trailerFields.length > 0) headers.push(['Trailer', trailerFields.map(([name]) => name).join(', ')]);
  headers.push(['Connection', 'close']);
  const bytes = sent.body ?? '';
  const framing = unframed ? 'none' : chunked || trailers ? 'chunked' : 'length';
  const bodyless = framing === 'length' && Buffer.byteLength(bytes) === 0;
  return {
    method: sent.method,
    target: target === 'absolute' ? `${url.origin}${url.pathname}${url.search}` : `${url.pathname}${url.search}`,
    ...(version && { version }),
    headers,
    ...(!bodyless && { body: { bytes, framing, ...(trailerFields.length > 0 && { trailers: trailerFields }) } }),
  };
}

/** Bytes as text inside a shell's single quotes in a printf format: CR, LF and other bytes escaped, `%` doubled. */
function printfText(bytes: Buffer): string {
  let text = '';
  for (const byte of bytes) {
    if (byte === 0x0d) text += '\\r';
    else if (byte === 0x0a) text += '\\n';
    else if (byte === 0x25) text += '%%';
    else if (byte === 0x5c) text += '\\\\';
    else if (byte === 0x27) text += "'\\''";
    else if (byte >= 0x20 && byte < 0x7f) text += String.fromCharCode(byte);
    else text += `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return text;
}

/** Options of {@link rawReproduction}. */
export interface ReproductionOptions {
  /** The key: never written, printed as `$PETSTORE_API_KEY`. */
  secret?: string;
  /** Each request a second after the one before, as a client waits for an answer. */
  oneByOne?: boolean;
  /** The client ends its side once everything is written (a body delimited by the close). */
  halfClose?: boolean;
}

/**
 * The shell command that writes the same bytes on one connection, for a finding `curl` cannot repeat (a
 * trailer section, two Host fields, pipelining, a body without framing). `secret` (the key) is never
 * written: it is printed as `$PETSTORE_API_KEY`.
 * @example rawReproduction('http://127.0.0.1:4010', [request]) // (exec 3<>/dev/tcp/127.0.0.1/4010; printf 'GET /v1/categories HTTP/1.1\r\n...' >&3; timeout 5 cat <&3)
 */
export function rawReproduction(
  origin: string,
  requests: ReadonlyArray<RawRequest>,
  { secret, oneByOne = false, halfClose = false }: ReproductionOptions = {},
): string {
  const printf = (bytes: Buffer) => {
    const parts = secret ? bytes.toString('latin1').split(secret) : [bytes.toString('latin1')];
    const format = parts.map((part) => printfText(Buffer.from(part, 'latin1'))).join('%s');
    return `printf '${format}'${parts
      .slice(1)
      .map(() => ' "$PETSTORE_API_KEY"')
      .join('')}`;
  };
  const url = new URL(origin);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const tls = url.protocol === 'https:';
  if (halfClose) {
    // bash cannot end one side of a socket: Node (which runs the suite) pipes the bytes and ends its side.
    const module = tls ? 'tls' : 'net';
    const options = `{host:'${url.hostname}',port:${port}${tls ? `,servername:'${url.hostname}'` : ''}}`;
    const node = `node -e "const s=require('${module}').connect(${options});process.stdin.pipe(s);s.pipe(process.stdout)"`;
    return `${printf(Buffer.concat(requests.map(rawRequestBytes)))} | timeout 5 ${node}`;
  }
  // One by one: each after a pause, as a client waits for an answer before the next.
  const writes = (oneByOne ? requests.map((request) => [request]) : [requests])
    .map((group) => `${printf(Buffer.concat(group.map(rawRequestBytes)))}${tls ? '' : ' >&3'}`)
    .join('; sleep 1; ');
  // bash's own /dev/tcp: no nc needed; what comes back is read for 5 s.
  if (!tls) return `(exec 3<>/dev/tcp/${url.hostname}/${port}; ${writes}; timeout 5 cat <&3)`;
  return `(${writes}) | openssl s_client -quiet -connect ${url.hostname}:${port}`;
}
