import { createServer, type IncomingHttpHeaders } from 'node:http';
import net, { type AddressInfo } from 'node:net';

// Services broken (or kept) in a framing the fake's seam never sees: Node's parser in front of it drops a
// trailer section and gives a request without framing no body, so an override cannot read either. Each
// is a front on a random loopback port that passes requests to the fake, breaking one rule on the way,
// as a gateway or a hand-written server does. The tests that run them: contracts/checks/framing-checks.test.ts.

/** A front on a loopback port, and how to stop it. */
export interface RunningFront {
  origin: string;
  close(): Promise<void>;
}

const FRAMING = ['content-length', 'transfer-encoding', 'trailer', 'connection', 'host', 'keep-alive'];

/**
 * What a front that reads each body whole merges from a trailer section into the header section: every
 * field (a trailer field wins, as `{ ...headers, ...trailers }` does), or only an `Authorization` the
 * header section lacks (a service that looks for its credential wherever one is).
 */
export type TrailerMerge = 'every-field' | 'missing-authorization';

function mergedHeaders(
  headers: IncomingHttpHeaders,
  trailers: NodeJS.Dict<string>,
  merge: TrailerMerge,
): Record<string, string> {
  const taken =
    merge === 'every-field'
      ? trailers
      : headers.authorization === undefined && trailers.authorization !== undefined
        ? { authorization: trailers.authorization }
        : {};
  const merged = Object.entries({ ...headers, ...taken }).filter(([name]) => !FRAMING.includes(name));
  return Object.fromEntries(merged.map(([name, value]) => [name, String(value)]));
}

/**
 * A gateway in front of `upstream` that reads each body whole and passes the request on with
 * Content-Length, trailer fields merged into its header fields as `merge` says (RFC 9112 §7.1.2 forbids it).
 * @example const front = await trailerMergingFront('http://127.0.0.1:4010', 'every-field');
 */
export async function trailerMergingFront(upstream: string, merge: TrailerMerge): Promise<RunningFront> {
  const server = createServer((incoming, res) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = (incoming.url ?? '/').replace(/^https?:\/\/[^/]+/, '');
      fetch(`${upstream}${path}`, {
        method: incoming.method ?? 'GET',
        headers: mergedHeaders(incoming.headers, incoming.trailers, merge),
        ...(body.length > 0 && { body }),
      })
        .then(async (answer) => {
          const headers = [...answer.headers].filter(
            ([name]) => !FRAMING.includes(name) && name !== 'content-encoding',
          );
          const content = Buffer.from(await answer.arrayBuffer());
          res.writeHead(answer.status, [...headers.flat(), 'Content-Length', String(content.length)]);
          res.end(content);
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * How a byte-for-byte front treats a request's first head:
 * - `body-to-close`: an HTTP/1.0 request without framing is read to the close of the connection, as a
 *   response is read (RFC 9112 §6.3 gives it no content), and only then passed on with Content-Length;
 * - `unframed-skips-limit`: the bytes that came with such a request's head are taken as its body at once,
 *   and passed on as the same JSON without its padding: the body limit is never met on that framing;
 * - `refuses-http10`: every HTTP/1.0 request gets a bare 400, as a parser that takes only HTTP/1.1;
 * - `parser-refusals`: what an HTTP layer may answer on its own, in its own format (the spec's "HTTP
 *   layer" paragraph): HTTP/1.0 gets a bare 505, a chunked body a bare 501 (one with a trailer section a
 *   bare 400), a body without framing a bare 411, and absolute-form a closed connection.
 */
export type RawFrontMode = 'body-to-close' | 'unframed-skips-limit' | 'refuses-http10' | 'parser-refusals';

const bare = (status: string) => `HTTP/1.1 ${status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`;

/** What a `parser-refusals` front answers on its own to a request's head, if anything. */
function parserRefusal(head: string, rest: Buffer): string | 'close' | undefined {
  const [requestLine = ''] = head.split('\r\n');
  if (/ HTTP\/1\.0$/.test(requestLine)) {
    const framed = /\r\n(content-length|transfer-encoding):/i.test(head);
    return rest.length > 0 && !framed ? bare('411 Length Required') : bare('505 HTTP Version Not Supported');
  }
  if (/^\S+ https?:\/\//.test(requestLine)) return 'close';
  if (/\r\ntrailer:/i.test(head)) return bare('400 Bad Request');
  if (/\r\ntransfer-encoding:/i.test(head)) return bare('501 Not Implemented');
  return undefined;
}

/** The same JSON without its padding (what `unframed-skips-limit` passes on), or the bytes as they came. */
function compacted(body: Buffer): Buffer {
  try {
    return Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8'))));
  } catch {
    return body;
  }
}

/**
 * A front in front of `upstream` that passes connections through byte for byte, but for what `mode`
 * changes in the first request of a connection.
 * @example const front = await rawFront('http://127.0.0.1:4010', 'body-to-close');
 */
export async function rawFront(upstream: string, mode: RawFrontMode): Promise<RunningFront> {
  const { hostname, port } = new URL(upstream);
  const sockets = new Set<net.Socket>();
  // Half-open: a client that ends its side (a body ended by the close) still gets its answer.
  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    sockets.add(client);
    let received: Buffer = Buffer.alloc(0);
    const onHead = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      client.off('data', onHead);
      const head = received.subarray(0, end).toString('latin1');
      const http10 = / HTTP\/1\.0$/.test(head.split('\r\n')[0]!);
      const refusal =
        mode === 'parser-refusals'
          ? parserRefusal(head, received.subarray(end + 4))
          : http10 && mode === 'refuses-http10'
            ? bare('400 Bad Request')
            : undefined;
      if (refusal === 'close') return void client.destroy();
      if (refusal) return void client.end(refusal);
      const unframed = http10 && !/\r\n(content-length|transfer-encoding):/i.test(head);
      const server = net.connect(Number(port), hostname);
      sockets.add(server);
      server.on('error', () => client.destroy());
      server.pipe(client);
      const passOn = (body: Buffer) =>
        server.end(Buffer.concat([Buffer.from(`${head}\r\nContent-Length: ${body.length}\r\n\r\n`, 'latin1'), body]));
      if (!unframed || (mode !== 'body-to-close' && mode !== 'unframed-skips-limit')) {
        server.write(received);
        client.pipe(server);
      } else if (mode === 'unframed-skips-limit') {
        // Whatever came with the head within a moment is the body: no wait for the close.
        setTimeout(() => passOn(compacted(received.subarray(end + 4))), 50);
        client.on('data', (more: Buffer) => (received = Buffer.concat([received, more])));
      } else {
        client.on('data', (more: Buffer) => (received = Buffer.concat([received, more])));
        client.on('end', () => passOn(received.subarray(end + 4)));
      }
    };
    client.on('data', onHead);
    client.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
