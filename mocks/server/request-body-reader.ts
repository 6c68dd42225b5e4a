import type { IncomingMessage } from 'node:http';
import { MAX_BODY_BYTES } from '../domain/request-body.js';

/** A request body read up to one byte past the limit: enough to know it is too large, never more. */
export interface BoundedBody {
  bytes: Uint8Array<ArrayBuffer>;
  overLimit: boolean;
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
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted);
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
    const onError = (error: Error) => reject(error);
    const onAborted = () => reject(new Error('client aborted the request body'));
    incoming.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
  });
}
