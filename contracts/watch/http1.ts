// HTTP/1.1 message framing (RFC 9112) as a proxy needs it: where a message's head ends, what its fields
// are, and where its body ends, so the bytes can go on as they came. Strict where a lenient parser would
// let a request be read two ways by two hops (request smuggling): conflicting lengths, a length beside
// a transfer coding, folded lines, bare CRs are refused.

const CRLF_CRLF = Buffer.from('\r\n\r\n');
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/1\.([01])$/;
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: ([\t\x20-\x7e\x80-\xff]*))?$/;

/** How a message's body is delimited. */
export type BodyFraming =
  { kind: 'none' } | { kind: 'length'; length: number } | { kind: 'chunked' } | { kind: 'until-close' };

/** The head of a message: start line and fields as sent (names keep their case). */
export interface MessageHead {
  /** `HTTP/1.0` or `HTTP/1.1`. */
  version: '1.0' | '1.1';
  /** `[name, value, name, value, ...]`, values without surrounding whitespace. */
  fields: string[];
  /** Its `Content-Length`, when it has one. */
  length?: number;
  /** Its `Transfer-Encoding` ends in `chunked`. */
  chunked: boolean;
  /** Its `Transfer-Encoding` as sent (repeated fields joined), when it has one. */
  transferEncoding?: string;
  /** The `Connection` options, lower case. */
  connection: string[];
}

export interface RequestHead extends MessageHead {
  method: string;
  target: string;
}

export interface ResponseHead extends MessageHead {
  status: number;
  reason: string;
}

/** A message that cannot be framed: the status and `Error` code a server answers it with. */
export class FramingError extends Error {
  constructor(
    message: string,
    readonly status = 400,
    readonly code = 'invalid_request',
  ) {
    super(message);
  }
}

/**
 * Where the head in `buffer` ends (the index after its blank line), or -1 when it has not all arrived.
 * Throws once the head is over `maxBytes` without ending.
 */
export function headEnd(buffer: Buffer, maxBytes: number): number {
  const at = buffer.indexOf(CRLF_CRLF);
  if (at === -1 ? buffer.length > maxBytes : at + 4 > maxBytes) {
    throw new FramingError(`The header block is over ${maxBytes} bytes.`, 431, 'request_header_fields_too_large');
  }
  return at === -1 ? -1 : at + 4;
}

function parseFields(lines: string[], into: MessageHead): void {
  for (let index = 1; index < lines.length; index += 1) {
    const line = lines[index]!;
    const colon = line.indexOf(':');
    const name = line.slice(0, colon);
    // A line that starts with whitespace continues the last (obsolete folding): refused, as RFC 9112 §5.2 allows.
    if (colon <= 0 || !TOKEN.test(name)) throw new FramingError(`Header line ${index} is not "name: value".`);
    // Only HTTP's OWS (SP, HTAB; RFC 9110 §5.5): trim() would also take a trailing 0xA0 (read as U+00A0),
    // and the curl of what watch saw would lose a byte the client sent.
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    if (!FIELD_VALUE.test(value)) throw new FramingError(`The value of ${name} has a control character.`);
    into.fields.push(name, value);
    switch (name.toLowerCase()) {
      case 'content-length':
        if (!/^\d{1,15}$/.test(value) || (into.length !== undefined && into.length !== Number(value))) {
          throw new FramingError(`Content-Length must be one decimal number, got "${value}".`);
        }
        into.length = Number(value);
        break;
      case 'transfer-encoding':
        into.transferEncoding = into.transferEncoding === undefined ? value : `${into.transferEncoding}, ${value}`;
        into.chunked = into.transferEncoding.toLowerCase().split(',').at(-1)!.trim() === 'chunked';
        break;
      case 'connection':
        into.connection.push(
          ...value
            .toLowerCase()
            .split(',')
            .map((option) => option.trim()),
        );
        break;
    }
  }
  if (into.transferEncoding !== undefined && into.length !== undefined)
    throw new FramingError('Content-Length cannot be sent with Transfer-Encoding.');
}

function headLines(bytes: Buffer): string[] {
  const text = bytes.toString('latin1', 0, bytes.length - 4);
  if (/\r(?!\n)|(?<!\r)\n/.test(text)) throw new FramingError('Lines must end in CRLF.');
  return text.split('\r\n');
}

/** A request head (the bytes up to and including its blank line). */
export function parseRequestHead(bytes: Buffer): RequestHead {
  const lines = headLines(bytes);
  const match = REQUEST_LINE.exec(lines[0]!);
  if (!match) throw new FramingError(`The request line "${lines[0]!.slice(0, 100)}" is not "METHOD target HTTP/1.1".`);
  const head: RequestHead = {
    method: match[1]!,
    target: match[2]!,
    version: match[3] === '0' ? '1.0' : '1.1',
    fields: [],
    chunked: false,
    connection: [],
  };
  parseFields(lines, head);
  if (head.transferEncoding !== undefined && !head.chunked)
    throw new FramingError('A request body must be chunked when it has a Transfer-Encoding.', 501, 'not_implemented');
  return head;
}

/** A response head (the bytes up to and including its blank line). */
export function parseResponseHead(bytes: Buffer): ResponseHead {
  const lines = headLines(bytes);
  const match = STATUS_LINE.exec(lines[0]!);
  if (!match)
    throw new FramingError(
      `The status line "${lines[0]!.slice(0, 100)}" is not "HTTP/1.1 status reason".`,
      502,
      'bad_gateway',
    );
  const head: ResponseHead = {
    status: Number(match[2]),
    reason: match[3] ?? '',
    version: match[1] === '0' ? '1.0' : '1.1',
    fields: [],
    chunked: false,
    connection: [],
  };
  try {
    parseFields(lines, head);
  } catch (error) {
    throw new FramingError((error as Error).message, 502, 'bad_gateway');
  }
  return head;
}

/** How a request's body is delimited (RFC 9112 §6.3): chunked, a length, or none. */
export function requestFraming(head: RequestHead): BodyFraming {
  if (head.chunked) return { kind: 'chunked' };
  return head.length ? { kind: 'length', length: head.length } : { kind: 'none' };
}

/** How the answer to `method` is delimited: none for HEAD, 1xx, 204, 304; else chunked, a length, or the close. */
export function responseFraming(head: ResponseHead, method: string): BodyFraming {
  if (method === 'HEAD' || head.status < 200 || head.status === 204 || head.status === 304) return { kind: 'none' };
  if (head.chunked) return { kind: 'chunked' };
  if (head.transferEncoding !== undefined) return { kind: 'until-close' };
  if (head.length !== undefined) return head.length === 0 ? { kind: 'none' } : { kind: 'length', length: head.length };
  return { kind: 'until-close' };
}

const MAX_CHUNK_LINE = 4096;

/**
 * Follows one body through its framing. `read` takes bytes that follow the head and says how many belong
 * to the body and whether it has ended; `onData` gets the payload (chunk framing removed) for the judge.
 */
export class BodyReader {
  #left: number;
  #state: 'size' | 'data' | 'data-end' | 'trailers' | 'done' = 'size';
  #line = '';

  constructor(
    readonly framing: BodyFraming,
    private readonly onData: (payload: Buffer) => void,
  ) {
    this.#left = framing.kind === 'length' ? framing.length : 0;
    if (framing.kind === 'none') this.#state = 'done';
  }

  get done(): boolean {
    return this.#state === 'done';
  }

  /** How many bytes of `chunk` (from `start`) belong to this body; `done` tells whether it has ended. */
  read(chunk: Buffer, start: number): number {
    switch (this.framing.kind) {
      case 'none':
        return 0;
      case 'until-close':
        if (start < chunk.length) this.onData(chunk.subarray(start));
        return chunk.length - start;
      case 'length': {
        const taken = Math.min(this.#left, chunk.length - start);
        if (taken > 0) this.onData(chunk.subarray(start, start + taken));
        this.#left -= taken;
        if (this.#left === 0) this.#state = 'done';
        return taken;
      }
      case 'chunked':
        return this.#readChunked(chunk, start);
    }
  }

  #readChunked(chunk: Buffer, start: number): number {
    let at = start;
    while (at < chunk.length && this.#state !== 'done') {
      if (this.#state === 'data') {
        const taken = Math.min(this.#left, chunk.length - at);
        this.onData(chunk.subarray(at, at + taken));
        at += taken;
        this.#left -= taken;
        if (this.#left === 0) this.#state = 'data-end';
        continue;
      }
      const newline = chunk.indexOf(10, at);
      const end = newline === -1 ? chunk.length : newline + 1;
      this.#line += chunk.toString('latin1', at, end);
      at = end;
      if (this.#line.length > MAX_CHUNK_LINE) throw new FramingError('A chunk line of the body is over 4 KiB.');
      if (newline === -1) break;
      const line = this.#line;
      this.#line = '';
      if (!line.endsWith('\r\n')) throw new FramingError('A chunk line of the body does not end in CRLF.');
      const content = line.slice(0, -2);
      if (this.#state === 'data-end') {
        if (content !== '') throw new FramingError('A chunk of the body is longer than its size says.');
        this.#state = 'size';
      } else if (this.#state === 'size') {
        const size = /^([0-9A-Fa-f]{1,12})(?:[ \t]*;.*)?$/.exec(content);
        if (!size) throw new FramingError(`"${content.slice(0, 40)}" is not a chunk size.`);
        this.#left = parseInt(size[1]!, 16);
        this.#state = this.#left === 0 ? 'trailers' : 'data';
      } else if (content === '') this.#state = 'done';
    }
    return at - start;
  }
}
