import { describe, expect, it } from '@jest/globals';
import {
  BodyReader,
  FramingError,
  headEnd,
  parseRequestHead,
  parseResponseHead,
  requestFraming,
  responseFraming,
  type BodyFraming,
} from './http1.js';

const head = (text: string) => Buffer.from(`${text.replaceAll('\n', '\r\n')}\r\n\r\n`);

/** Feeds `bytes` in pieces of `size`, as sockets deliver them; returns the payload, bytes taken, and whether it ended. */
function readInPieces(
  framing: BodyFraming,
  bytes: Buffer,
  size: number,
): { payload: string; taken: number; done: boolean } {
  const payload: Buffer[] = [];
  const reader = new BodyReader(framing, (piece) => payload.push(Buffer.from(piece)));
  let taken = 0;
  for (let at = 0; at < bytes.length && !reader.done; at += size) {
    const piece = bytes.subarray(at, Math.min(at + size, bytes.length));
    const used = reader.read(piece, 0);
    taken += used;
    if (used < piece.length) break;
  }
  return { payload: Buffer.concat(payload).toString('latin1'), taken, done: reader.done };
}

function refusal(read: () => unknown): { status: number; code: string } | undefined {
  try {
    read();
    return undefined;
  } catch (error) {
    if (!(error instanceof FramingError)) throw error;
    return { status: error.status, code: error.code };
  }
}

describe('HTTP/1.1 framing', () => {
  it('finds where a head ends only once it has all arrived, and refuses one over the limit', () => {
    const bytes = head('GET /v1/pets HTTP/1.1\nHost: a');
    expect(headEnd(bytes.subarray(0, bytes.length - 1), 1024)).toBe(-1);
    expect(headEnd(Buffer.concat([bytes, Buffer.from('body')]), 1024)).toBe(bytes.length);
    expect(refusal(() => headEnd(Buffer.alloc(2000, 'a'), 1024))).toEqual({
      status: 431,
      code: 'request_header_fields_too_large',
    });
    expect(refusal(() => headEnd(Buffer.concat([Buffer.alloc(2000, 'a'), Buffer.from('\r\n\r\n')]), 1024))).toEqual({
      status: 431,
      code: 'request_header_fields_too_large',
    });
  });

  it('reads a request head: method, target, version, fields in order and case, and its framing', () => {
    const request = parseRequestHead(
      head(
        'POST /v1/categories?x=1 HTTP/1.1\nHost: a\nX-Two:  spaced value \nContent-Length: 12\nConnection: Keep-Alive, Foo',
      ),
    );
    expect(request).toMatchObject({
      method: 'POST',
      target: '/v1/categories?x=1',
      version: '1.1',
      fields: ['Host', 'a', 'X-Two', 'spaced value', 'Content-Length', '12', 'Connection', 'Keep-Alive, Foo'],
      length: 12,
      chunked: false,
      connection: ['keep-alive', 'foo'],
    });
    expect(requestFraming(request)).toEqual({ kind: 'length', length: 12 });
    expect(requestFraming(parseRequestHead(head('GET / HTTP/1.0')))).toEqual({ kind: 'none' });
    expect(requestFraming(parseRequestHead(head('POST / HTTP/1.1\nTransfer-Encoding: chunked')))).toEqual({
      kind: 'chunked',
    });
    expect(requestFraming(parseRequestHead(head('POST / HTTP/1.1\nContent-Length: 5\ncontent-length: 5')))).toEqual({
      kind: 'length',
      length: 5,
    });
  });

  it('refuses what two hops could read two ways: both framings, two lengths, a folded line, a bare CR or LF', () => {
    for (const text of [
      'POST / HTTP/1.1\nContent-Length: 5\nTransfer-Encoding: chunked',
      'POST / HTTP/1.1\nContent-Length: 5\nContent-Length: 6',
      'POST / HTTP/1.1\nContent-Length: 5, 5',
      'POST / HTTP/1.1\nContent-Length: -1',
      'POST / HTTP/1.1\nContent-Length: 0x10',
      'GET / HTTP/1.1\nX-A: 1\n folded',
      'GET / HTTP/1.1\nX-A : 1',
      'GET / HTTP/1.1\nX-A: 1\rX-B: 2',
      'GET / HTTP/1.1\nX-A: 1\u0000',
      'GET /  HTTP/1.1',
      'GET / HTTP/2.0',
      'G(T / HTTP/1.1',
    ]) {
      expect([text, refusal(() => parseRequestHead(head(text)))]).toEqual([
        text,
        { status: 400, code: 'invalid_request' },
      ]);
    }
    expect(refusal(() => parseRequestHead(Buffer.from('GET / HTTP/1.1\nHost: a\r\n\r\n')))).toEqual({
      status: 400,
      code: 'invalid_request',
    });
    expect(refusal(() => parseRequestHead(head('POST / HTTP/1.1\nTransfer-Encoding: gzip')))).toEqual({
      status: 501,
      code: 'not_implemented',
    });
  });

  it('frames an answer by the request it answers: none for HEAD, 1xx, 204, 304; else chunked, a length, or the close', () => {
    const answer = (text: string) => parseResponseHead(head(text));
    expect(answer('HTTP/1.1 200 OK\nContent-Length: 3')).toMatchObject({ status: 200, reason: 'OK', length: 3 });
    expect(responseFraming(answer('HTTP/1.1 200 OK\nContent-Length: 3'), 'GET')).toEqual({ kind: 'length', length: 3 });
    expect(responseFraming(answer('HTTP/1.1 200 OK\nContent-Length: 3'), 'HEAD')).toEqual({ kind: 'none' });
    expect(responseFraming(answer('HTTP/1.1 200 OK\nContent-Length: 0'), 'GET')).toEqual({ kind: 'none' });
    expect(responseFraming(answer('HTTP/1.1 204 No Content'), 'DELETE')).toEqual({ kind: 'none' });
    expect(responseFraming(answer('HTTP/1.1 304 Not Modified\nContent-Length: 10'), 'GET')).toEqual({ kind: 'none' });
    expect(responseFraming(answer('HTTP/1.1 100 Continue'), 'POST')).toEqual({ kind: 'none' });
    expect(responseFraming(answer('HTTP/1.1 200 OK\nTransfer-Encoding: gzip, chunked'), 'GET')).toEqual({
      kind: 'chunked',
    });
    expect(responseFraming(answer('HTTP/1.1 200 OK\nTransfer-Encoding: gzip'), 'GET')).toEqual({ kind: 'until-close' });
    expect(responseFraming(answer('HTTP/1.0 200 OK'), 'GET')).toEqual({ kind: 'until-close' });
    expect(answer('HTTP/1.1 418')).toMatchObject({ status: 418, reason: '' });
    expect(refusal(() => answer('HTTP/1.1 200 OK\nContent-Length: 3\nTransfer-Encoding: chunked'))).toEqual({
      status: 502,
      code: 'bad_gateway',
    });
    expect(refusal(() => answer('HTTP/1.1 20 OK'))).toEqual({ status: 502, code: 'bad_gateway' });
  });

  it('follows a chunked body however the bytes are split, extensions and trailers included, and stops where it ends', () => {
    const body = Buffer.from(
      '5;name=value\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nTrailer-A: 1\r\n\r\nGET /next',
    );
    for (const size of [1, 2, 3, 7, 16, 1000]) {
      expect(readInPieces({ kind: 'chunked' }, body, size)).toEqual({
        payload: 'helloabcdefghijklmnopqrstuvwxyz',
        taken: body.length - 'GET /next'.length,
        done: true,
      });
    }
    expect(readInPieces({ kind: 'chunked' }, Buffer.from('3\r\nabc\r\n'), 2)).toEqual({
      payload: 'abc',
      taken: 8,
      done: false,
    });
    for (const bad of ['zz\r\n', '3\r\nabcd\r\n', '3\nabc\r\n0\r\n\r\n', `${'f'.repeat(13)}\r\n`]) {
      expect([bad, refusal(() => readInPieces({ kind: 'chunked' }, Buffer.from(bad), 100))]).toEqual([
        bad,
        { status: 400, code: 'invalid_request' },
      ]);
    }
  });

  it('takes exactly a length, nothing for none, everything until the close', () => {
    expect(readInPieces({ kind: 'length', length: 5 }, Buffer.from('helloGET'), 3)).toEqual({
      payload: 'hello',
      taken: 5,
      done: true,
    });
    expect(readInPieces({ kind: 'none' }, Buffer.from('GET'), 3)).toEqual({ payload: '', taken: 0, done: true });
    expect(readInPieces({ kind: 'until-close' }, Buffer.from('all of it'), 4)).toEqual({
      payload: 'all of it',
      taken: 9,
      done: false,
    });
  });
});
