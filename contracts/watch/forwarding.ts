import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transform, pipeline } from 'node:stream';
import { existsSync, readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

// What forwarding one exchange needs besides the sockets: the upstream's CAs, the header lines as they
// go on, the bytes kept for the judge, the request body as it streams, and the 502 when nobody answers.

// Where the system keeps its CA bundle (OpenSSL's variable first, then Debian's and Red Hat's paths).
const SYSTEM_CA_FILES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt'];

/**
 * The CAs an HTTPS upstream is verified with: Node's own and the system's (a company CA that signs
 * staging is in the system's bundle, not in Node's).
 */
export function upstreamCertificates(env: NodeJS.ProcessEnv = process.env): string[] {
  const file = [env.SSL_CERT_FILE, ...SYSTEM_CA_FILES].find((candidate) => candidate !== undefined && existsSync(candidate));
  return file ? [...rootCertificates, readFileSync(file, 'utf8')] : [...rootCertificates];
}

// Hop-by-hop fields (RFC 9110 §7.6.1) belong to one connection and are never forwarded.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** A message's header lines as forwarded, and what they say of its body. */
export interface ForwardedHeaders {
  /** `[name, value, name, value, ...]` without hop-by-hop fields, `Host` replaced (or dropped). */
  fields: string[];
  /** Its `Content-Length`, when it has a readable one. */
  length?: number;
  /** It came with `Transfer-Encoding` (a body of unknown length). */
  chunked: boolean;
}

const latin1 = (field: string | Buffer) => (typeof field === 'string' ? field : field.toString('latin1'));

/**
 * The raw header lines (node:http's strings or undici's bytes) as forwarded, read in one pass: the
 * proxy reads every message's headers, so it reads them once.
 */
export function forwardedHeaders(raw: ReadonlyArray<string | Buffer>, host: string | undefined): ForwardedHeaders {
  const forwarded: ForwardedHeaders = { fields: [], chunked: false };
  for (let index = 0; index < raw.length; index += 2) {
    const name = latin1(raw[index]!);
    const value = latin1(raw[index + 1]!);
    const lower = name.toLowerCase();
    if (lower === 'content-length') forwarded.length = /^\d+$/.test(value) ? Number(value) : undefined;
    else if (lower === 'transfer-encoding') forwarded.chunked = true;
    if (HOP_BY_HOP.has(lower)) continue;
    if (lower === 'host') {
      if (host !== undefined) forwarded.fields.push(name, host);
      continue;
    }
    forwarded.fields.push(name, value);
  }
  return forwarded;
}

/** The request's header record as the judge reads it: names as sent. */
export function headerRecord(flat: string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let index = 0; index < flat.length; index += 2) record[flat[index]!] = flat[index + 1]!;
  return record;
}

/** Collects a stream's bytes up to a limit while counting all of them. */
export class Tee {
  #chunks: Buffer[] = [];
  #kept = 0;
  size = 0;

  constructor(readonly limit: number) {}

  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.#kept + chunk.length <= this.limit) {
      this.#chunks.push(chunk);
      this.#kept += chunk.length;
    }
  }

  get complete(): boolean {
    return this.size <= this.limit;
  }

  /** The bytes kept, joined once (the request's are read to send them, then to judge them). */
  bytes(): Buffer {
    if (this.#chunks.length !== 1) this.#chunks = [Buffer.concat(this.#chunks)];
    return this.#chunks[0]!;
  }
}

/** Answers 502 with an `Error` body naming what failed (or cuts the answer off if it had begun). */
export function badGateway(response: ServerResponse, message: string): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = JSON.stringify({ code: 'bad_gateway', message, status: 502 });
  response.writeHead(502, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  response.end(body);
}

/** The answer's header record as the judge reads it: names lower-cased, repeated fields joined. */
export function answerHeaders(flat: string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let index = 0; index < flat.length; index += 2) {
    const name = flat[index]!.toLowerCase();
    record[name] = record[name] === undefined ? flat[index + 1]! : `${record[name]}, ${flat[index + 1]!}`;
  }
  return record;
}

/**
 * The request's body as it streams to the upstream, teed: what is under the limit is kept for the judge.
 * For bodies over the limit or of unknown length. A stream of its own rather than a second `data`
 * listener on the request: the upstream may start reading only once its connection is up, and a flowing
 * request would have lost the first chunks by then.
 */
export function teed(incoming: IncomingMessage, tee: Tee): Transform {
  const body = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      tee.add(chunk);
      done(null, chunk);
    },
  });
  pipeline(incoming, body, () => {});
  return body;
}
