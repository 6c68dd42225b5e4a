import { documentedSpec, type SpecDocument } from '../core/spec-document.js';
import { grammarSurroundings } from './grammar-surroundings.js';
import { listedSurroundings } from './listed-surroundings.js';
import { declaredRequestFields, specSurroundings } from './spec-surroundings.js';
import type { Surrounding } from './surrounding.js';

export type { Surrounding, SurroundingSource } from './surrounding.js';

/** The fields frameworks read a method from in place of the request line's (`method_overrides_ignored` sends them). */
export const METHOD_OVERRIDE_FIELDS = ['X-HTTP-Method-Override', 'X-HTTP-Method', 'X-Method-Override'];

/** Fields another table of the suite varies already. */
const VARIED_ELSEWHERE = new Set([
  // The equivalences (contracts/protocol/equivalences.ts), CORS (every_method_routed), conditional requests.
  'accept',
  'origin',
  'if-none-match',
  'if-modified-since',
  ...METHOD_OVERRIDE_FIELDS.map((field) => field.toLowerCase()),
]);

/**
 * Every undeclared element a client or an intermediary may put around a request of this spec, derived
 * from two sources and topped up by a list: the spec's own names, header fields and media types, each
 * where the spec does not declare it (spec-surroundings.ts); every request field of HTTP's registry with
 * a value of its grammar, and the forms of the request line and of framing RFC 9112 defines
 * (grammar-surroundings.ts); and tempting values of proxies' and frameworks' fields and query names
 * (listed-surroundings.ts). Each element once: the first source that gives an entry keeps it. Fields the
 * spec declares on a request, and those another table varies, are left out of every source.
 * @example surroundings().map(({ id, source }) => `${source} ${id}`) // ['spec query petId', ..., 'grammar header TE: trailers, deflate;q=0.5', ..., 'listed header X-Forwarded-For: 127.0.0.1', ...]
 */
export function surroundings(spec: SpecDocument = documentedSpec()): Surrounding[] {
  const declared = declaredRequestFields(spec);
  const free = ({ axis, field }: Surrounding) =>
    axis !== 'header' ||
    field === undefined ||
    (!declared.has(field.toLowerCase()) && !VARIED_ELSEWHERE.has(field.toLowerCase()));
  const all = [
    ...specSurroundings(spec, VARIED_ELSEWHERE),
    ...grammarSurroundings().filter(free),
    ...listedSurroundings().filter(free),
  ];
  return all.filter((element, index) => all.findIndex(({ id }) => id === element.id) === index);
}
