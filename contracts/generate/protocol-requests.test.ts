import { describe, expect, it } from '@jest/globals';
import { specDocument } from '../../spec/spec-artifacts.js';
import { readSpecDocument } from '../core/spec-document.js';
import { isBearerCredential } from '../rules/http-grammar.js';
import { malformedCredentials, methodProbes } from './protocol-requests.js';

describe('requests across the protocol, derived from the spec', () => {
  it('probes every method a path lacks: the interface’s others, standard, extension, and its own in other cases', () => {
    const methods = methodProbes('/categories').map(({ method }) => method);
    expect(methods).not.toContain('GET');
    expect(methods).not.toContain('POST');
    expect(methods).toEqual(expect.arrayContaining(['PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT']));
    expect(methods).toEqual(expect.arrayContaining(['PROPFIND', 'X-PETSTORE', 'get', 'Get', 'post', 'Post']));
    // /pets/{petId} has no POST, which the interface has elsewhere.
    expect(methodProbes('/pets/{petId}').map(({ method }) => method)).toContain('POST');
  });

  it('covers an operation added to the spec without new code (a DELETE on /pets/{petId})', () => {
    const document = structuredClone(specDocument()) as { paths: Record<string, Record<string, unknown>> };
    document.paths['/pets/{petId}']!.delete = {
      operationId: 'deletePet',
      parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
      responses: { '204': { description: 'gone' } },
    };
    const spec = readSpecDocument(document);
    const onPet = methodProbes('/pets/{petId}', spec).map(({ method }) => method);
    expect(onPet).not.toContain('DELETE');
    expect(onPet).toEqual(expect.arrayContaining(['delete', 'Delete']));
    // Every other path now gets DELETE as a method of the interface it lacks.
    expect(methodProbes('/categories', spec).find(({ method }) => method === 'DELETE')?.why).toMatch(/interface/);
  });

  it('spells the key in syntaxes the bearer grammar refuses, each still holding the key', () => {
    for (const { what, auth } of malformedCredentials()) {
      const value = typeof auth === 'object' && 'spell' in auth ? auth.spell('free-test-key') : '';
      expect([what, value.includes('free-test-key')]).toEqual([what, true]);
      // Two fields (`\n`) are malformed as a pair (RFC 9110 §5.3), whatever each holds.
      expect([what, isBearerCredential(value)]).toEqual([what, false]);
    }
  });
});
