import { parsedJson, type Exchange, type SentRequest } from '../core/exchange.js';

// Reading HTTP/1.x answers off a connection: one reader for the raw sender (one answer to one request)
// and for the connection checks (every answer on a connection, pipelined or not).

/** One answer read off a connection: the status line's version too, and the header fields as repeated lines, joined. */
export interface ConnectionAnswer {
  version: string;
  status: number;
  /** Names lower-cased; repeated fields joined with `, `. */
  headers: Record<string, string>;
  body: Buffer;
  /**
   * Bytes the server sent past this answer's framing before it closed (content after HEAD, past
   * Content-Length): on the last answer of a closed connection only, where nothing else can own them.
   */
  stray?: Buffer;
}

/** Where a chunked body ends in `bytes` (after its trailer section), and its content; undefined while incomplete. */
function chunkedEnd(bytes: Buffer): { content: Buffer; end: number } | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1').split(';')[0]!, 16);
    if (Number.isNaN(size)) return undefined;
    if (size === 0) {
      // The trailer section: field lines up to an empty one (RFC 9112 §7.1.2).
      for (let line = lineEnd + 2; ;) {
        const next = bytes.indexOf('\r\n', line);
        if (next < 0) return undefined;
        if (next === line) return { content: Buffer.concat(parts), end: next + 2 };
        line = next + 2;
      }
    }
    if (lineEnd + 2 + size + 2 > bytes.length) return undefined;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/**
 * The answers whole in `received`, in order (an interim 1xx skipped), each framed as RFC 9112 §6.3
 * says: none after HEAD, 204 or 304; chunked; Content-Length; else to the close. `methods[i]` is the
 * method the i-th answer is to.
 * @example answersIn(received, ['GET'], true)[0]?.status
 */
export function answersIn(received: Buffer, methods: readonly string[], closed: boolean): ConnectionAnswer[] {
  const answers: ConnectionAnswer[] = [];
  let rest = received;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const [statusLine = '', ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const match = /^HTTP\/(1\.[01]) (\d{3})/.exec(statusLine);
    if (!match) break;
    const status = Number(match[2]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      // Only OWS (SP, HTAB: RFC 9110 §5.5): JavaScript's trim() would also take a 0xA0 read as U+00A0.
      const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    const after = rest.subarray(end + 4);
    // An interim answer (100 Continue to an expectation) comes before the final one (RFC 9110 §15.2);
    // 101 ends HTTP/1.1 on the connection, so it is the last answer read.
    if (status === 101) {
      answers.push({ version: match[1]!, status, headers, body: Buffer.alloc(0) });
      break;
    }
    if (status < 200) {
      rest = after;
      continue;
    }
    const method = methods[answers.length] ?? 'GET';
    let body: Buffer;
    let taken: number;
    if (method === 'HEAD' || status === 204 || status === 304) [body, taken] = [Buffer.alloc(0), 0];
    else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const chunked = chunkedEnd(after);
      if (!chunked) break;
      [body, taken] = [chunked.content, chunked.end];
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (after.length < length) break;
      [body, taken] = [after.subarray(0, length), length];
    } else if (closed) [body, taken] = [after, after.length];
    else break;
    answers.push({ version: match[1]!, status, headers, body });
    rest = after.subarray(taken);
  }
  const last = answers.at(-1);
  // Not the start of another answer cut short by the close: that is no content of this one.
  if (closed && last && rest.length > 0 && !rest.subarray(0, 5).equals(Buffer.from('HTTP/'))) last.stray = rest;
  return answers;
}

/**
 * An answer as an {@link Exchange} for reports, with the request as `curl` can repeat it (`sent`): the
 * status, header fields and body that came.
 */
export function exchangeOf(sent: SentRequest, answer: ConnectionAnswer): Exchange {
  // What came past the framing is content the server sent with this answer: the rules judge it (RFC 9110 §8.6, §9.3.2).
  const content = answer.stray ? Buffer.concat([answer.body, answer.stray]) : answer.body;
  const text = content.toString('utf8');
  return {
    request: sent,
    status: answer.status,
    headers: answer.headers,
    text,
    json: parsedJson(text),
    bytes: new Uint8Array(content),
  };
}
