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

/**
 * Reads a body while counting: past {@link MAX_BODY_BYTES} it stops reading, so a huge or endless
 * upload never sits in memory. The caller closes the connection when `overLimit`.
 * @example const { bytes, overLimit } = await readBoundedBody(req);
 */
export function readBoundedBody(incoming: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BoundedBody> {
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
