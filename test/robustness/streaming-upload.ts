// Streams a large request body as fast as the server reads it, until the server closes the
// connection or the whole body is sent: how much got out shows whether the server kept reading.
import net from 'node:net';
import { parseResponses, type RawResponse } from './raw-http.js';

/** What a streamed upload saw. */
export interface UploadOutcome {
  /** Body bytes handed to the socket before it closed (an upper bound on what the server read). */
  bodyBytesWritten: number;
  responses: RawResponse[];
  closedByServer: boolean;
}

/**
 * Writes `head`, then `totalBytes` of body in chunks (framed as chunked encoding when `chunked`),
 * respecting backpressure; gives up after `timeoutMs`.
 * @example await streamUpload(url, head, { totalBytes: 64 * 2 ** 20, chunked: true })
 */
export function streamUpload(
  url: string,
  head: string,
  options: { totalBytes: number; chunked?: boolean; timeoutMs?: number },
): Promise<UploadOutcome> {
  const { port, hostname } = new URL(url);
  const { totalBytes, chunked = false, timeoutMs = 30_000 } = options;
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const framed = chunked
    ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
    : chunk;
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const received: Buffer[] = [];
    let written = 0;
    let settled = false;
    const settle = (closedByServer: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ bodyBytesWritten: written, responses: parseResponses(Buffer.concat(received)), closedByServer });
    };
    const timer = setTimeout(() => settle(false), timeoutMs);
    socket.on('data', (data) => received.push(data));
    socket.on('error', () => settle(true));
    socket.on('close', () => settle(true));
    const pump = () => {
      while (written < totalBytes && !socket.destroyed) {
        written += chunk.length;
        if (!socket.write(framed)) return void socket.once('drain', pump);
      }
      if (!socket.destroyed && chunked) socket.write('0\r\n\r\n');
    };
    socket.write(head);
    pump();
  });
}
