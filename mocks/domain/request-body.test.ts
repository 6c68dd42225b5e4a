import { describe, expect, it } from '@jest/globals';
import { documentedOperation } from '../../contracts/core/spec-document.js';
import { MAX_BODY_BYTES } from './request-body.js';

describe('the request body limit', () => {
  it('is the one the spec says to machines (x-max-body-bytes), so the fake and the suite cannot drift apart', () => {
    expect(documentedOperation('createCategory').requestBody?.maxBytes).toBe(MAX_BODY_BYTES);
  });
});
