import { existsSync, readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

// What forwarding one exchange needs besides the sockets and the framing: the upstream's CAs, the header
// lines as they go on, and the bytes kept for the judge.

// Where the system keeps its CA bundle (OpenSSL's variable first, then Debian's and Red Hat's paths).
const SYSTEM_CA_FILES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt'];

/**
 * The CAs an HTTPS upstream is verified with: Node's own and the system's (a company CA that signs
 * staging is in the system's bundle, not in Node's).
 */
export function upstreamCertificates(env: NodeJS.ProcessEnv = process.env): string[] {
  const file = [env.SSL_CERT_FILE, ...SYSTEM_CA_FILES].find(
    (candidate) => candidate !== undefined && existsSync(candidate),
  );
  return file ? [...rootCertificates, readFileSync(file, 'utf8')] : [...rootCertificates];
}

// Hop-by-hop fields (RFC 9110 §7.6.1) belong to one connection and are never forwarded.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * A message's header lines as forwarded, read in one pass: hop-by-hop fields dropped (those named by
 * its `Connection` too) and, for a request (`host` given), `Host` the upstream's, added when the client
 * sent none (HTTP/1.0).
 */
export function forwardedFields(
  fields: readonly string[],
  host: string | undefined,
  connection: readonly string[],
): string[] {
  const forwarded: string[] = [];
  let hostSeen = false;
  for (let index = 0; index < fields.length; index += 2) {
    const name = fields[index]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || (connection.length > 0 && connection.includes(lower))) continue;
    if (lower === 'host') {
      if (host !== undefined && !hostSeen) forwarded.push(name, host);
      hostSeen = true;
      continue;
    }
    forwarded.push(name, fields[index + 1]!);
  }
  if (host !== undefined && !hostSeen) forwarded.push('Host', host);
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

/** The answer's header record as the judge reads it: names lower-cased, repeated fields joined. */
export function answerHeaders(flat: string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let index = 0; index < flat.length; index += 2) {
    const name = flat[index]!.toLowerCase();
    record[name] = record[name] === undefined ? flat[index + 1]! : `${record[name]}, ${flat[index + 1]!}`;
  }
  return record;
}
