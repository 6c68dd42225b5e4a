import type { IncomingMessage } from 'node:http';
import { MAX_BODY_BYTES } from '../domain/request-body.js';

/** A request body read up to one byte past the limit: enough to know it is too large, never more. */
export interface BoundedBody {
  bytes: Uint8Array<ArrayBuffer>;
  overLimit: boolean;
}

/** The client went away (or was timed out) before its body arrived whole: there is no one to answer. */
export class ClientAbortedError extends Error {
  override readonly name = 'ClientAbortedError';
}

/** Type guard for {@link ClientAbortedError}. */
export function isClientAborted(error: unknown): error is ClientAbortedError {
  return error instanceof ClientAbortedError;
}

const NO_BYTES = new Uint8Array(new ArrayBuffer(0));

/**
 * Reads a body while counting: past {@link MAX_BODY_BYTES} it stops reading, so a huge or endless
 * upload never sits in memory. The caller closes the connection when `overLimit`.
 * @example const { bytes, overLimit } = await readBoundedBody(req);
 */
export async function readBoundedBody(incoming: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BoundedBody> {
  // A small body mostly arrives in the same read as its headers, and Node's parser pushes it into the
  // stream right after the 'request' event: one microtask later it is all buffered. Taken at once, it
  // costs no flowing mode, listeners, promise or the ticks of 'data' and 'end'; any other body streams.
  await Promise.resolve();
  const declared = incoming.headers['content-length'];
  if (
    declared !== undefined &&
    incoming.headers['transfer-encoding'] === undefined &&
    incoming.readableLength === Number(declared) &&
    incoming.readableLength <= limit
  ) {
    return { bytes: (incoming.read() as Buffer<ArrayBuffer> | null) ?? NO_BYTES, overLimit: false };
  }
  return readStreaming(incoming, limit);
}

/** The body as it arrives, chunk by chunk. */
function readStreaming(incoming: IncomingMessage, limit: number): Promise<BoundedBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (overLimit: boolean) => {
      incoming.off('data', onData).off('end', onEnd).off('error', onGone).off('aborted', onGone);
      resolve({ bytes: Buffer.concat(chunks, Math.min(size, limit + 1)), overLimit });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        incoming.pause();
        finish(true);
      }
    };
    const onEnd = () => finish(false);
    // Node reports a connection lost mid-body as 'aborted' and, to listeners, as an 'error'.
    const onGone = () => reject(new ClientAbortedError('the connection closed before the request body ended'));
    incoming.on('data', onData).on('end', onEnd).on('error', onGone).on('aborted', onGone);
  });
}
