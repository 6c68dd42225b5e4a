import type { Socket } from 'node:net';
import { rawErrorResponse } from '../../mocks/server/protocol-errors.js';
import { forwardedFields, Tee } from './forwarding.js';
import {
  BodyReader,
  FramingError,
  headEnd,
  parseRequestHead,
  parseResponseHead,
  requestFraming,
  responseFraming,
  type RequestHead,
} from './http1.js';

/** Where a connection forwards to. */
export interface UpstreamAddress {
  /** The base address as the user gave it, for messages. */
  base: string;
  /** `host[:port]`, the `Host` every forwarded request carries. */
  host: string;
  /** Opens a new connection to it (TLS for `https:`). */
  connect(): Socket;
  /** Name, value, ... added to every forwarded request (`watch --header`); not in what is judged or recorded. */
  extraFields?: readonly string[];
}

/** One request and its answer as they went through, for the judge and the HAR. */
export interface ForwardedExchange {
  method: string;
  /** Origin-form: path and query as sent. */
  target: string;
  version: '1.0' | '1.1';
  /** The request's fields as forwarded (hop-by-hop ones dropped, `Host` the upstream's). */
  fields: string[];
  requestBody: Tee;
  status: number;
  /** The answer's fields without hop-by-hop ones. */
  answerFields: string[];
  responseBody: Tee;
  /** `Date.now()` when its head had arrived. */
  started: number;
  ticket: number;
}

/** What a connection tells the proxy. */
export interface ConnectionEvents {
  /** A request's head has arrived and goes on; its ticket orders it among everything sent. */
  sending(): number;
  /** The client has the whole answer. */
  answered(exchange: ForwardedExchange): void;
  /** It will never be answered through: the client went away, or the upstream did not answer (then `upstreamError` first). */
  abandoned(exchange: ForwardedExchange): void;
  /** The upstream did not answer a request: the proxy answered the client `status` itself. */
  upstreamError(failure: UpstreamFailure): void;
}

/** A request the upstream did not answer, and what the proxy answered in its place. */
export interface UpstreamFailure {
  /** `GET /v1/categories`. */
  request: string;
  why: string;
  status: 502 | 504;
  /** The line printed for it. */
  message: string;
}

interface InFlight extends ForwardedExchange {
  /** The answer's head has gone to the client. */
  answering: boolean;
  /** The client asked for the connection to close after this answer. */
  lastOnConnection: boolean;
}

interface AnswerInProgress {
  exchange: InFlight;
  body: BodyReader;
  /** Chunk framing removed for an HTTP/1.0 client, which cannot read it. */
  dechunk: boolean;
  closeAfter: boolean;
}

// A request head, its time and the idle time between requests as node:http's server allows them, which
// this proxy stood behind before it framed messages itself; more room for an answer's head (cookies).
const MAX_REQUEST_HEAD_BYTES = 16 * 1024;
const CLIENT_IDLE_MS = 5_000;
const HEAD_TIMEOUT_MS = 60_000;
const MAX_ANSWER_HEAD_BYTES = 64 * 1024;
// Shorter than a server's usual 5 s keep-alive: the proxy closes an idle upstream connection before the
// upstream does, so a request never goes out on a connection the upstream is closing.
const UPSTREAM_IDLE_MS = 4_000;
/** How long the upstream may take to begin an answer, by default (`watch --upstream-timeout`). */
export const DEFAULT_ANSWER_TIMEOUT_MS = 30_000;

const EMPTY = Buffer.alloc(0);

function headText(startLine: string, fields: string[]): string {
  let text = `${startLine}\r\n`;
  for (let index = 0; index < fields.length; index += 2) text += `${fields[index]}: ${fields[index + 1]}\r\n`;
  return `${text}\r\n`;
}

/** An absolute-form target (`http://host/v1/x`) as the origin-form path the upstream is sent. */
function originForm(target: string): string {
  if (target.startsWith('/') || target === '*') return target;
  try {
    const url = new URL(target);
    return url.pathname + url.search;
  } catch {
    throw new FramingError(`The request target "${target.slice(0, 100)}" is neither a path nor an absolute URL.`);
  }
}

/**
 * One client connection and the upstream connection it forwards to: requests go on as their bytes
 * arrive (heads rewritten for `Host` and hop-by-hop fields, bodies byte for byte), answers come back
 * in order (HTTP/1.1 pipelining included) and go to the client as they come. Every message is framed
 * here (http1.ts), so each is read once and written once.
 */
export class ProxiedConnection {
  readonly #client: Socket;
  readonly #address: UpstreamAddress;
  readonly #events: ConnectionEvents;
  readonly #limit: number;
  #upstream: Socket | undefined;
  readonly #inFlight: InFlight[] = [];
  /** Client bytes of a head that has not all arrived. */
  #requestHead: Buffer = EMPTY;
  #headStarted = 0;
  #requestBody: { exchange: InFlight; body: BodyReader } | undefined;
  /** Upstream bytes of an answer head that has not all arrived. */
  #answerHead: Buffer = EMPTY;
  #answer: AnswerInProgress | undefined;
  /** No more requests are read: the client asked to close, or sent something that is not HTTP. */
  #noMoreRequests = false;
  /** Answered once every answer before it is out. */
  #refusal: FramingError | undefined;
  #closed = false;
  // What one chunk read from either side makes the proxy write (a head and the body bytes behind it)
  // goes out in one write.
  #corked: Socket | undefined;

  readonly #answerTimeoutMs: number;

  /** `answerTimeoutMs`: how long the upstream may take to begin an answer before the client gets a 504. */
  constructor(
    client: Socket,
    address: UpstreamAddress,
    events: ConnectionEvents,
    limit: number,
    answerTimeoutMs = DEFAULT_ANSWER_TIMEOUT_MS,
  ) {
    this.#client = client;
    this.#answerTimeoutMs = answerTimeoutMs;
    this.#address = address;
    this.#events = events;
    this.#limit = limit;
    client.setNoDelay(true);
    client.setTimeout(CLIENT_IDLE_MS, () => this.#clientIdle());
    client.on('data', (chunk: Buffer) => this.#fromClient(chunk));
    client.on('end', () => this.#clientEnded());
    client.on('error', () => this.#close());
    client.on('close', () => this.#close());
  }

  /** Ends both connections; what is in flight is abandoned. */
  destroy(): void {
    this.#client.destroy();
    this.#close();
  }

  #fromClient(chunk: Buffer): void {
    if (this.#closed) return;
    try {
      this.#readRequests(chunk);
    } catch (error) {
      if (!(error instanceof FramingError)) throw error;
      this.#refuse(error);
    } finally {
      this.#uncork();
    }
  }

  #write(socket: Socket, bytes: Buffer | string): boolean {
    if (this.#corked !== socket) {
      this.#uncork();
      socket.cork();
      this.#corked = socket;
    }
    return socket.write(bytes);
  }

  #uncork(): void {
    this.#corked?.uncork();
    this.#corked = undefined;
  }

  #readRequests(chunk: Buffer): void {
    let bytes = chunk;
    let at = 0;
    while (at < bytes.length && (this.#requestBody || !this.#noMoreRequests)) {
      if (this.#requestBody) {
        const { body } = this.#requestBody;
        const taken = body.read(bytes, at);
        if (taken > 0) this.#toUpstream(at === 0 && taken === bytes.length ? bytes : bytes.subarray(at, at + taken));
        at += taken;
        if (body.done) this.#requestBody = undefined;
        continue;
      }
      if (this.#requestHead.length === 0) {
        // A client may send an empty line between requests (RFC 9112 §2.2).
        while (at < bytes.length && (bytes[at] === 13 || bytes[at] === 10)) at += 1;
        if (at === bytes.length) break;
        this.#headStarted = Date.now();
      }
      const head =
        this.#requestHead.length === 0 ? bytes.subarray(at) : Buffer.concat([this.#requestHead, bytes.subarray(at)]);
      const end = headEnd(head, MAX_REQUEST_HEAD_BYTES);
      if (end === -1) {
        this.#requestHead = Buffer.from(head);
        return;
      }
      this.#requestHead = EMPTY;
      this.#startRequest(parseRequestHead(head.subarray(0, end)));
      bytes = head;
      at = end;
    }
  }

  #startRequest(head: RequestHead): void {
    if (head.method === 'CONNECT')
      throw new FramingError('CONNECT is not supported: watch is a reverse proxy in front of one service.');
    const target = originForm(head.target);
    const fields = forwardedFields(head.fields, this.#address.host, head.connection);
    const framing = requestFraming(head);
    const withExtra = this.#address.extraFields?.length ? [...fields, ...this.#address.extraFields] : fields;
    const upstreamFields = framing.kind === 'chunked' ? [...withExtra, 'Transfer-Encoding', 'chunked'] : withExtra;
    const exchange: InFlight = {
      method: head.method,
      target,
      version: head.version,
      fields,
      requestBody: new Tee(this.#limit),
      status: 0,
      answerFields: [],
      responseBody: new Tee(this.#limit),
      started: Date.now(),
      ticket: this.#events.sending(),
      answering: false,
      lastOnConnection:
        head.connection.includes('close') || (head.version === '1.0' && !head.connection.includes('keep-alive')),
    };
    this.#inFlight.push(exchange);
    if (exchange.lastOnConnection) this.#noMoreRequests = true;
    this.#toUpstream(headText(`${head.method} ${target} HTTP/1.1`, upstreamFields));
    const body = new BodyReader(framing, (payload) => exchange.requestBody.add(payload));
    if (!body.done) this.#requestBody = { exchange, body };
  }

  #toUpstream(bytes: Buffer | string): void {
    const upstream = this.#upstream ?? this.#connect();
    // The upstream reads slower than the client sends: the client waits until it has caught up.
    if (!this.#write(upstream, bytes) && !this.#client.isPaused()) {
      this.#client.pause();
      upstream.once('drain', () => this.#client.resume());
    }
  }

  #connect(): Socket {
    const upstream = this.#address.connect();
    upstream.setNoDelay(true);
    upstream.setTimeout(Math.min(UPSTREAM_IDLE_MS, this.#answerTimeoutMs), () => {
      if (this.#upstream !== upstream) return;
      if (this.#inFlight.length === 0) return this.#dropUpstream();
      const waiting = this.#inFlight[0]!;
      if (!waiting.answering && Date.now() - waiting.started >= this.#answerTimeoutMs)
        return this.#upstreamFailed(`no answer within ${Math.round(this.#answerTimeoutMs / 1000)} s`, 504);
      // A socket's timeout fires once per quiet spell: armed again, it fires until the answer's time is up.
      upstream.setTimeout(Math.min(UPSTREAM_IDLE_MS, this.#answerTimeoutMs));
    });
    upstream.on('data', (chunk: Buffer) => this.#fromUpstream(upstream, chunk));
    upstream.on('end', () => this.#upstreamGone(upstream));
    upstream.on('error', (error: NodeJS.ErrnoException) => this.#upstreamGone(upstream, error));
    upstream.on('close', () => this.#upstreamGone(upstream));
    this.#upstream = upstream;
    return upstream;
  }

  #dropUpstream(): void {
    this.#upstream?.destroy();
    this.#upstream = undefined;
    this.#answerHead = EMPTY;
  }

  #fromUpstream(upstream: Socket, chunk: Buffer): void {
    if (upstream !== this.#upstream || this.#closed) return;
    try {
      this.#readAnswers(chunk);
    } catch (error) {
      if (!(error instanceof FramingError)) throw error;
      this.#upstreamFailed(error.message);
    } finally {
      this.#uncork();
    }
  }

  #readAnswers(chunk: Buffer): void {
    let bytes = chunk;
    let at = 0;
    while (at < bytes.length && !this.#closed) {
      if (this.#answer) {
        const { body, dechunk } = this.#answer;
        const taken = body.read(bytes, at);
        if (!dechunk && taken > 0)
          this.#toClient(at === 0 && taken === bytes.length ? bytes : bytes.subarray(at, at + taken));
        at += taken;
        if (body.done) this.#answered();
        continue;
      }
      const exchange = this.#inFlight[0];
      if (!exchange) throw new FramingError('the upstream sent bytes nobody asked for');
      const head =
        this.#answerHead.length === 0 ? bytes.subarray(at) : Buffer.concat([this.#answerHead, bytes.subarray(at)]);
      let end: number;
      try {
        end = headEnd(head, MAX_ANSWER_HEAD_BYTES);
      } catch {
        throw new FramingError(`its answer's header block is over ${MAX_ANSWER_HEAD_BYTES} bytes`);
      }
      if (end === -1) {
        this.#answerHead = Buffer.from(head);
        return;
      }
      this.#answerHead = EMPTY;
      this.#startAnswer(exchange, head.subarray(0, end));
      bytes = head;
      at = end;
    }
  }

  #startAnswer(exchange: InFlight, headBytes: Buffer): void {
    const head = parseResponseHead(headBytes);
    const fields = forwardedFields(head.fields, undefined, head.connection);
    if (head.status < 200) {
      // 101 would switch protocols, but Upgrade is never forwarded; any other 1xx goes on before the answer.
      if (head.status === 101) throw new FramingError('it switched protocols, which no forwarded request asked for');
      this.#toClient(headText(`HTTP/1.1 ${head.status} ${head.reason}`, fields));
      return;
    }
    exchange.status = head.status;
    exchange.answerFields = fields;
    const framing = responseFraming(head, exchange.method);
    const dechunk = framing.kind === 'chunked' && exchange.version === '1.0';
    // An upstream that answers before the request body is all in, and closes: the rest of the body has
    // nowhere to go, so the client's connection closes after the answer too.
    const upstreamCloses =
      head.connection.includes('close') || (head.version === '1.0' && !head.connection.includes('keep-alive'));
    const closeAfter =
      exchange.lastOnConnection ||
      framing.kind === 'until-close' ||
      dechunk ||
      (upstreamCloses && this.#requestBody?.exchange === exchange);
    const toClient = [...fields];
    if (framing.kind === 'chunked' && !dechunk) toClient.push('Transfer-Encoding', head.transferEncoding!);
    if (closeAfter) toClient.push('Connection', 'close');
    else if (exchange.version === '1.0') toClient.push('Connection', 'keep-alive');
    exchange.answering = true;
    this.#toClient(headText(`HTTP/1.1 ${head.status} ${head.reason}`, toClient));
    const body = new BodyReader(framing, (payload) => {
      exchange.responseBody.add(payload);
      if (dechunk) this.#toClient(payload);
    });
    this.#answer = { exchange, body, dechunk, closeAfter };
    if (body.done) this.#answered();
  }

  #toClient(bytes: Buffer | string): void {
    // The client reads slower than the upstream sends: the upstream waits until it has caught up.
    const upstream = this.#upstream;
    if (!this.#write(this.#client, bytes) && upstream && !upstream.isPaused()) {
      upstream.pause();
      this.#client.once('drain', () => upstream.resume());
    }
  }

  #answered(): void {
    const { exchange, closeAfter } = this.#answer!;
    this.#answer = undefined;
    this.#inFlight.shift();
    this.#events.answered(exchange);
    if (closeAfter) {
      this.#dropUpstream();
      this.#client.end();
      this.#close();
    } else if (this.#inFlight.length === 0 && this.#refusal) this.#sendRefusal();
  }

  #upstreamGone(upstream: Socket, error?: NodeJS.ErrnoException): void {
    if (upstream !== this.#upstream) return;
    this.#upstream = undefined;
    upstream.destroy();
    // An answer delimited by the close has ended with it.
    if (!error && this.#answer?.body.framing.kind === 'until-close') return this.#answered();
    this.#answerHead = EMPTY;
    if (this.#inFlight.length > 0) this.#upstreamFailed(error?.code ?? error?.message ?? 'it closed the connection');
  }

  /** The upstream will not answer what is in flight: 502 for the first unless its answer has begun. */
  #upstreamFailed(why: string, status: 502 | 504 = 502): void {
    this.#dropUpstream();
    const first = this.#inFlight[0];
    if (!first || this.#closed) return;
    if (first.answering) {
      this.#client.destroy();
      return this.#close();
    }
    // Without the query: a client may have put its key there, and this line reaches every report.
    const request = `${first.method} ${first.target.split('?')[0]}`;
    const message = `the upstream ${this.#address.base} did not answer ${request} (${why})`;
    this.#events.upstreamError({ request, why, status, message });
    const code = status === 504 ? 'gateway_timeout' : 'bad_gateway';
    this.#client.end(rawErrorResponse({ code, message, status }));
    this.#close();
  }

  #refuse(error: FramingError): void {
    this.#noMoreRequests = true;
    this.#client.pause();
    // A request cut off mid-body cannot be finished: the upstream has part of it.
    if (this.#requestBody) {
      this.#client.destroy();
      return this.#close();
    }
    this.#refusal = error;
    if (this.#inFlight.length === 0) this.#sendRefusal();
  }

  #sendRefusal(): void {
    const { status, code, message } = this.#refusal!;
    this.#client.end(rawErrorResponse({ code, message, status }));
    this.#close();
  }

  #clientIdle(): void {
    if (this.#requestHead.length > 0) {
      if (Date.now() - this.#headStarted >= HEAD_TIMEOUT_MS)
        this.#refuse(
          new FramingError(
            'The request head was not received in time; the connection is closed.',
            408,
            'request_timeout',
          ),
        );
      // A socket's timeout fires once per quiet spell: armed again, it fires until the head's time is up.
      else this.#client.setTimeout(CLIENT_IDLE_MS);
      return;
    }
    if (this.#inFlight.length === 0 && !this.#requestBody) {
      this.#client.end();
      this.#close();
    }
  }

  #clientEnded(): void {
    // As node:http's server does by default: a client that ends its side has gone; what it asked is cancelled.
    this.#client.end();
    this.#close();
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#dropUpstream();
    for (const exchange of this.#inFlight.splice(0)) this.#events.abandoned(exchange);
  }
}
