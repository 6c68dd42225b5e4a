import { apiError } from '../../mocks/domain/errors.js';
import { onCreate, type BrokenConfiguration, type BrokenVariant } from './variant.js';

type Fields = Record<string, unknown>;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The service's own 500, as its framework answers an exception it did not catch. */
function failed() {
  const error = apiError('internal_error', 'The service failed to answer.');
  return { status: error.status, headers: {}, body: error };
}

/** A create whose body, once parsed, goes through `change` before the fake reads it; a thrown change is a 500. */
function creatingFrom(change: (text: string, parsed: unknown) => unknown): BrokenConfiguration {
  return onCreate(async (request, next) => {
    const text = await request.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return next();
    }
    let changed: unknown;
    try {
      changed = change(text, parsed);
    } catch {
      return failed();
    }
    return changed === parsed ? next() : next({ body: JSON.stringify(changed) });
  });
}

/** How deep the JSON text nests, read bracket by bracket as a recursive parser would descend. */
function depthOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index += 1;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === '[' || character === '{') deepest = Math.max(deepest, ++depth);
    else if (character === ']' || character === '}') depth -= 1;
  }
  return deepest;
}

/** Variants of what a server's runtime does to JSON that is valid and dangerous to it. */
export const RUNTIME_HAZARD_VARIANTS: BrokenVariant[] = [
  {
    name: 'body-copied-by-assignment',
    breaks: 'refused_never_admitted',
    does: "the body is copied with Object.assign before validation: a __proto__ member sets the copy's prototype and vanishes (the schema break is stored, 201), and members sent only inside __proto__ are read through it",
    caughtBy: ['runtime_hazards_answered'],
    fake: creatingFrom((_text, parsed) => {
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return parsed;
      const copy = Object.assign({}, parsed) as Fields;
      // What a handler reads by name comes through the prototype too; the rest are the copy's own members.
      return { ...copy, name: copy.name, ...(copy.description !== undefined && { description: copy.description }) };
    }),
  },
  {
    name: 'lone-surrogate-fails',
    breaks: 'no_server_error',
    does: 'a string holding a lone surrogate (a JSON escape RFC 8259 allows) makes the service fail with 500, as a strict UTF-8 encoder does',
    caughtBy: ['runtime_hazards_answered'],
    fake: creatingFrom((_text, parsed) => {
      const name = (parsed as Fields | null)?.name;
      if (typeof name === 'string' && name.match(LONE_SURROGATE)) throw new Error('surrogates not allowed');
      return parsed;
    }),
  },
  {
    name: 'lone-surrogate-replaced',
    breaks: 'stored_as_sent',
    does: "a lone surrogate is stored as U+FFFD, as Go's encoding/json does: the record is answered 201 but holds another string than the one sent",
    caughtBy: ['runtime_hazards_answered'],
    fake: creatingFrom((_text, parsed) => {
      const name = (parsed as Fields | null)?.name;
      if (typeof name !== 'string' || !name.match(LONE_SURROGATE)) return parsed;
      return { ...(parsed as Fields), name: name.replace(LONE_SURROGATE, '\ufffd') };
    }),
  },
  {
    name: 'format-characters-refused',
    breaks: 'runtime_hazards_answered',
    does: 'a string holding a line separator (U+2028), a byte-order mark or a right-to-left override is refused with 400, though the spec lets a service refuse only NUL, lone surrogates and noncharacters: every other string is stored exactly as sent',
    caughtBy: ['runtime_hazards_answered'],
    fake: onCreate(async (request, next) => {
      const name = ((await request.json()) as Fields | undefined)?.name;
      if (typeof name !== 'string' || !/[\u2028\ufeff\u202e]/.test(name)) return next();
      const error = apiError('invalid_request', 'body: name holds a character this service does not take.');
      return { status: error.status, headers: {}, body: error };
    }),
  },
  {
    name: 'deep-nesting-fails',
    breaks: 'no_server_error',
    does: "a body nested more than 1,000 deep makes the service fail with 500, as a recursive parser with Python's default limit does",
    caughtBy: ['runtime_hazards_answered'],
    fake: creatingFrom((text, parsed) => {
      if (depthOf(text) > 1_000) throw new RangeError('maximum recursion depth exceeded');
      return parsed;
    }),
  },
];
