import type { OperationModel } from '../generate/operation-model.js';
import { pathOf } from '../generate/operation-model.js';
import type { ContractRequest } from '../core/exchange.js';
import { pathValuesOf } from '../core/spec-operations.js';

/** A spelling of a request that must be answered exactly like the plain one. */
export interface Spelling {
  /** How it differs, for people: `Authorization: bearer <key>`. */
  spelt: string;
  request: ContractRequest;
}

/** One protocol equivalence: what the standards (or the spec) say must be treated alike. */
export interface Equivalence {
  name: string;
  /** Where it is written. */
  basis: string;
  rule: string;
  /** Which requests it applies to: any, those with a JSON body, those with path parameters. */
  appliesTo: 'any' | 'body' | 'pathParameters';
  /** The ways to spell the plain request that must be answered alike, for one operation. */
  spellings(request: ContractRequest, model: OperationModel): Spelling[];
}

const bearer = (scheme: string, between = ' ', header?: string) => ({
  spell: (key: string) => `${scheme}${between}${key}`,
  shown: `${scheme}${between}\${PETSTORE_API_KEY}`,
  ...(header && { header }),
});

const jsonText = (request: ContractRequest) => JSON.stringify(request.json);

/** Every string value's characters written as `\uXXXX` escapes, and `/` as `\/`: the same JSON text. */
function escapedJson(value: unknown): string {
  return JSON.stringify(value, null, 0).replace(/"((?:[^"\\]|\\.)*)"/g, (_whole, inner: string) => {
    const decoded = JSON.parse(`"${inner}"`) as string;
    return `"${[...decoded].map((character) => (character === '/' ? '\\/' : character.length === 1 ? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}` : character)).join('')}"`;
  });
}

function reversedMembers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedMembers);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([name, member]) => [name, reversedMembers(member)]),
  );
}

/** The request's path with every character of each path parameter percent-encoded (`/pets/1` as `/pets/%31`). */
function percentEncodedPath(request: ContractRequest, model: OperationModel): string {
  const [path = '', query] = request.path.split('?');
  const values = pathValuesOf(model.operation.path, path) ?? {};
  const encoded = Object.fromEntries(
    Object.entries(values).map(([name, value]) => [
      name,
      [...new TextEncoder().encode(decodeURIComponent(value))]
        .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
        .join(''),
    ]),
  );
  return `${pathOf(model, encoded)}${query === undefined ? '' : `?${query}`}`;
}

/**
 * The table of equivalences the suite checks: each spelling must get the same status, and the same
 * body (a write: the same fields, bar those the service assigns) as the plain request. The docs'
 * table is this one (a test compares them).
 */
export const EQUIVALENCES: readonly Equivalence[] = [
  {
    name: 'auth-scheme-case',
    basis: 'RFC 9110 §11.1',
    rule: 'the authentication scheme is case-insensitive: `bearer`, `BEARER` are `Bearer`',
    appliesTo: 'any',
    spellings: (request) =>
      ['bearer', 'BEARER', 'bEaReR'].map((scheme) => ({
        spelt: `Authorization: ${scheme} <key>`,
        request: { ...request, auth: bearer(scheme) },
      })),
  },
  {
    name: 'field-name-case',
    basis: 'RFC 9110 §5.1',
    rule: 'header field names are case-insensitive: `authorization`, `CONTENT-TYPE`',
    appliesTo: 'any',
    spellings: (request) => [
      { spelt: 'authorization: Bearer <key>', request: { ...request, auth: bearer('Bearer', ' ', 'authorization') } },
      { spelt: 'AUTHORIZATION: Bearer <key>', request: { ...request, auth: bearer('Bearer', ' ', 'AUTHORIZATION') } },
      ...(request.json === undefined
        ? []
        : [
            {
              spelt: 'content-type: application/json',
              request: { ...request, contentType: null, headers: { 'content-type': 'application/json' } },
            },
          ]),
    ],
  },
  {
    name: 'credentials-spacing',
    basis: 'RFC 9110 §11.4, §5.5',
    rule: 'one or more spaces separate the scheme from the token, and whitespace around a field value is not part of it',
    appliesTo: 'any',
    spellings: (request) => [
      { spelt: 'Authorization: Bearer  <key> (two spaces)', request: { ...request, auth: bearer('Bearer', '  ') } },
      {
        spelt: 'Authorization:  Bearer <key>\\t (surrounding whitespace)',
        request: {
          ...request,
          auth: { spell: (key: string) => ` Bearer ${key}\t`, shown: ' Bearer ${PETSTORE_API_KEY}\\t' },
        },
      },
    ],
  },
  {
    name: 'accept-any-json',
    basis: 'RFC 9110 §12.5.1',
    rule: 'no `Accept`, `*/*`, `application/*` and weighted lists that include JSON all accept `application/json`',
    appliesTo: 'any',
    spellings: (request) =>
      [null, '*/*', 'application/*', 'text/html;q=0.5, application/json', 'application/json; charset=utf-8'].map(
        (accept) => ({
          spelt: accept === null ? 'no Accept' : `Accept: ${accept}`,
          request: { ...request, headers: { ...request.headers, Accept: accept } },
        }),
      ),
  },
  {
    name: 'media-type-case',
    basis: 'RFC 9110 §8.3.1',
    rule: 'type and subtype are case-insensitive: `Application/JSON` is `application/json`',
    appliesTo: 'body',
    spellings: (request) =>
      ['Application/JSON', 'APPLICATION/JSON'].map((contentType) => ({
        spelt: `Content-Type: ${contentType}`,
        request: { ...request, contentType },
      })),
  },
  {
    name: 'media-type-parameters',
    basis: 'RFC 9110 §8.3.1, §5.6.6; RFC 8259 §11',
    rule: 'a `charset=utf-8` parameter, in any case, quoted or not, with or without spaces, names the same media type',
    appliesTo: 'body',
    spellings: (request) =>
      ['application/json; charset=utf-8', 'application/json;charset=UTF-8', 'application/json ; charset="utf-8"'].map(
        (contentType) => ({
          spelt: `Content-Type: ${contentType}`,
          request: { ...request, contentType },
        }),
      ),
  },
  {
    name: 'json-whitespace',
    basis: 'RFC 8259 §2',
    rule: 'whitespace between JSON tokens is insignificant',
    appliesTo: 'body',
    spellings: (request) => [
      {
        spelt: 'the body pretty-printed, with a final newline',
        request: { ...request, rawBody: `\n${JSON.stringify(request.json, null, 2)}\n` },
      },
    ],
  },
  {
    name: 'json-member-order',
    basis: 'RFC 8259 §4',
    rule: 'an object is an unordered set of members',
    appliesTo: 'body',
    spellings: (request) => [
      {
        spelt: 'the members in reverse order',
        request: { ...request, rawBody: JSON.stringify(reversedMembers(request.json)) },
      },
    ],
  },
  {
    name: 'json-escapes',
    basis: 'RFC 8259 §7',
    rule: 'a character and its `\\uXXXX` escape (and `/` and `\\/`) are the same string',
    appliesTo: 'body',
    spellings: (request) => [
      {
        spelt: `every string character escaped (${jsonText(request).slice(0, 30)}… as \\u escapes)`,
        request: { ...request, rawBody: escapedJson(request.json) },
      },
    ],
  },
  {
    name: 'percent-encoded-path',
    basis: 'RFC 3986 §6.2.2.2',
    rule: 'a percent-encoded unreserved character is that character: `/pets/%31` is `/pets/1`',
    appliesTo: 'pathParameters',
    spellings: (request, model) => [
      {
        spelt: 'each path parameter percent-encoded',
        request: { ...request, path: percentEncodedPath(request, model) },
      },
    ],
  },
];
