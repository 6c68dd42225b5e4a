import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { sendOnConnection, type ConnectionAnswer } from '../transport/raw-connection.js';

/**
 * How a front breaks (or keeps) a rule the fake's seam cannot reach, since the fake's HTTP server handles
 * the connection (and frames every answer) before any override sees a request:
 * - `swapped`: answers the first two pipelined requests swapped;
 * - `closes-silently`: closes after each answer without saying `close`;
 * - `host-guarded`: refuses a request without Host or with two, as RFC 9112 §3.2 says, and passes the rest on;
 * - `host-merged`: as a gateway that merges them, passes a request on with the first Host it named (the
 *   upstream's own when it named none);
 * - `authorization-merged`: likewise passes a request on with the first Authorization field it carries;
 * - `line-end-after-content`: writes a line end after each answer's content, past its Content-Length;
 * - `content-after-head`: sends content (with its Content-Length) after an answer to HEAD, then closes;
 * - `passing`: passes every request on and its answer back (to count what a check wrote).
 */
export type FrontMode =
  | 'swapped'
  | 'closes-silently'
  | 'host-guarded'
  | 'host-merged'
  | 'authorization-merged'
  | 'line-end-after-content'
  | 'content-after-head'
  | 'passing';

/** An answer of the fake as bytes again, framed by Content-Length (`extra` goes after the content, outside it). */
function answerBytes({ status, headers, body }: ConnectionAnswer, close: boolean, extra = Buffer.alloc(0)): Buffer {
  const kept = Object.entries(headers).filter(
    ([name]) => !['content-length', 'transfer-encoding', 'connection'].includes(name),
  );
  const lines = [`HTTP/1.1 ${status} -`, ...kept.map(([name, value]) => `${name}: ${value}`)];
  lines.push(`Content-Length: ${body.length}`, ...(close ? ['Connection: close'] : []));
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body, extra]);
}

/** The whole requests at the start of `buffered` (a body only by Content-Length: the checks sent through a front send no chunks). */
function splitRequests(buffered: Buffer): { requests: Buffer[]; rest: Buffer } {
  const requests: Buffer[] = [];
  let rest: Buffer = buffered;
  for (let end = rest.indexOf('\r\n\r\n'); end >= 0; end = rest.indexOf('\r\n\r\n')) {
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(rest.subarray(0, end).toString('latin1'))?.[1] ?? 0);
    if (rest.length < end + 4 + length) break;
    requests.push(rest.subarray(0, end + 4 + length));
    rest = rest.subarray(end + 4 + length);
  }
  return { requests, rest };
}

/** The request with the first field of that name alone, or `fallback` where it named none: what a merging gateway sends on. */
function withFirstField(request: Buffer, name: string, fallback?: string): Buffer {
  const text = request.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  const [line, ...fields] = text.slice(0, end).split('\r\n');
  const named = (field: string) => field.toLowerCase().startsWith(`${name.toLowerCase()}:`);
  const first = fields.find(named) ?? (fallback === undefined ? undefined : `${name}: ${fallback}`);
  const head = [line, ...(first === undefined ? [] : [first]), ...fields.filter((field) => !named(field))].join('\r\n');
  return Buffer.from(head + text.slice(end), 'latin1');
}

/** The request as a front of `mode` passes it on to `upstream`. */
function passedOn(request: Buffer, mode: FrontMode, upstream: string): Buffer {
  if (mode === 'host-merged') return withFirstField(request, 'Host', new URL(upstream).host);
  if (mode === 'authorization-merged') return withFirstField(request, 'Authorization');
  return request;
}

/** The answer as a front of `mode` sends it back to a request of `method`, and whether it then closes. */
function answeredBack(answer: ConnectionAnswer, method: string, mode: FrontMode, closing: boolean) {
  const hasContent = method !== 'HEAD' && answer.status !== 204 && answer.status !== 304;
  if (mode === 'line-end-after-content' && hasContent)
    return { bytes: answerBytes(answer, closing, Buffer.from('\r\n')), closing };
  if (mode === 'content-after-head' && method === 'HEAD') {
    // What a server that writes its GET-like content for HEAD too sends; the close keeps the stray bytes
    // off a connection a client would reuse.
    const content = Buffer.from(JSON.stringify({ status: answer.status, sentFor: 'HEAD' }));
    return { bytes: answerBytes({ ...answer, body: content }, true), closing: true };
  }
  return { bytes: answerBytes(answer, closing), closing };
}

/**
 * A raw TCP front on a random loopback port that passes each request to `upstream` on a connection of its
 * own, as `mode` says: what a gateway or server in front of the fake does that Node's server never does.
 * @example const front = await rawFront(new URL(fake.descriptor.baseUrl).origin, 'authorization-merged');
 */
export async function rawFront(
  upstream: string,
  mode: FrontMode,
): Promise<{ origin: string; close(): Promise<void>; headsSeen(): number }> {
  const sockets = new Set<net.Socket>();
  // Request heads the front read off its connections, whatever it did with them: what the suite wrote.
  let heads = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffered: Buffer = Buffer.alloc(0);
    let timer: NodeJS.Timeout | undefined;
    const flush = async () => {
      const { requests, rest } = splitRequests(buffered);
      heads += requests.length;
      buffered = rest;
      const answers: Buffer[] = [];
      let closes = false;
      for (const request of requests) {
        const head = request.toString('latin1');
        const hosts = head.match(/\r\nhost:/gi)?.length ?? 0;
        const closing = /\r\nconnection: *close/i.test(head) || /^[^\r]* HTTP\/1\.0\r\n/.test(head);
        if (mode === 'host-guarded' && hosts !== 1) {
          answers.push(Buffer.from('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'));
          closes = true;
          break;
        }
        const [answer] = (await sendOnConnection(upstream, [passedOn(request, mode, upstream)])).answers;
        if (!answer) break;
        const back = answeredBack(answer, head.slice(0, head.indexOf(' ')), mode, closing);
        answers.push(back.bytes);
        if ((closes = back.closing)) break;
      }
      if (mode === 'swapped' && answers.length > 1) answers.splice(0, 2, answers[1]!, answers[0]!);
      if (socket.destroyed) return;
      if (mode === 'closes-silently') socket.end(answers[0] ?? Buffer.alloc(0));
      else if (closes) socket.end(Buffer.concat(answers));
      else socket.write(Buffer.concat(answers));
    };
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      clearTimeout(timer);
      // Pipelined requests come in one write; a short pause gathers them before any is answered.
      timer = setTimeout(() => void flush(), 30);
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    headsSeen: () => heads,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
