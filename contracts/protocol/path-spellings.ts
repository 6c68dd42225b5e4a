import { errorCodeOf, type Exchange } from '../core/exchange.js';
import { documentedSpec, type SpecDocument } from '../core/spec-document.js';
import { pathUnder } from '../core/spec-operations.js';
import { operationModels, pathOf } from '../generate/operation-model.js';
import { nearMissesOf } from './distinctions.js';

/**
 * Another spelling of a path the spec defines, derived from RFC 3986: one that names another resource
 * (a near miss of the distinctions table: the spec's unknown path, `404 not_found`), or one RFC 3986 makes
 * the same URI (`either`: answered as the path itself or as an unknown path, both allowed).
 */
export interface PathSpelling {
  /** Its entry in the evidence catalogue: `path /categories: trailing-slash`. */
  id: string;
  /** The spec's path template it spells (`/pets/{petId}`) and that path as sent (`/pets/1`). */
  template: string;
  plain: string;
  /** The spelling as sent. */
  path: string;
  name: string;
  basis: string;
  either: boolean;
}

/** How a spelling of a spec path is named in the evidence catalogue. */
export const pathSpellingEntry = (template: string, name: string) => `path ${template}: ${name}`;

/** Each literal segment's first letter percent-encoded (`/%63ategories`): RFC 3986 §6.2.2.2's same path. */
function percentEncodedLetters(path: string): string {
  return path
    .split('/')
    .map((segment) =>
      /^[A-Za-z]/.test(segment) && !/^\d+$/.test(segment)
        ? `%${segment.charCodeAt(0).toString(16).toUpperCase()}${segment.slice(1)}`
        : segment,
    )
    .join('/');
}

/**
 * Every other spelling of every path of the spec (each operation's path, its parameters at their
 * examples): the near misses of the distinctions table, and each literal segment with an unreserved
 * letter percent-encoded. Dot segments (`/store/../categories`) are left out: a URL parser removes them
 * before any request goes, so no client of this suite can send them.
 * @example pathSpellings().map(({ id }) => id) // ['path /categories: path-letter-case', ..., 'path /categories: percent-encoded-unreserved', ...]
 */
export function pathSpellings(spec: SpecDocument = documentedSpec()): PathSpelling[] {
  const paths = new Map(operationModels(spec).map((model) => [model.operation.path, pathOf(model)]));
  return [...paths].flatMap(([template, plain]) => [
    ...nearMissesOf(plain).map(({ distinction, path }) => ({
      id: pathSpellingEntry(template, distinction.name),
      template,
      plain,
      path,
      name: distinction.name,
      basis: distinction.basis,
      either: false,
    })),
    {
      id: pathSpellingEntry(template, 'percent-encoded-unreserved'),
      template,
      plain,
      path: percentEncodedLetters(plain),
      name: 'percent-encoded-unreserved',
      basis: 'RFC 3986 §6.2.2.2',
      either: true,
    },
  ]);
}

/**
 * Whether an answer is an unknown path's (`404 not_found`) to a path spelt with a percent-encoded
 * unreserved character (`/%70ets/1`): RFC 3986 §6.2.2.2 makes it the spec's path, and a service that
 * compares paths as sent may still read it as an unknown one. Either reading is allowed, so the model
 * does not hold such an answer to the operation's promises.
 * @example unknownAsSpelt(exchangeOf404('/%70ets/1'), baseUrl) // true
 */
export function unknownAsSpelt(exchange: Exchange, baseUrl: string): boolean {
  if (exchange.status !== 404 || errorCodeOf(exchange) !== 'not_found') return false;
  const { url } = exchange.request;
  const spelt = pathAsSent(url, baseUrl);
  return spelt !== undefined && spelt !== pathUnder(url, baseUrl);
}

/**
 * A request's path under the base address as sent, without its query (no normalising: a spelling is
 * what it tries); undefined when it is not under it.
 * @example pathAsSent('http://127.0.0.1:4010/v1/%63ategories?x=1', 'http://127.0.0.1:4010/v1') // '/%63ategories'
 */
export function pathAsSent(url: string, baseUrl: string): string | undefined {
  return url.startsWith(baseUrl) ? url.slice(baseUrl.length).split('?')[0] : undefined;
}
