import type { OverrideRequest } from '../../mocks/handlers/overrides.js';
import { override } from '../../mocks/handlers/typed-override.js';
import { onCreate, textAnswer, withJson, wrapping, type BrokenConfiguration, type BrokenVariant } from './variant.js';

type Fields = Record<string, unknown>;
const PET_PATH = /^\/pets\/([^/]+)$/;

/** A service that stores `transform(value)` for every string field of a created category. */
function storingStrings(transform: (value: string) => string): BrokenConfiguration {
  return {
    overrides: [
      override.post('/categories', async ({ request, next }) => {
        const body = await request.json();
        if (typeof body !== 'object' || body === null || Array.isArray(body)) return next();
        const stored = Object.entries(body as Fields).map(([name, value]) => [
          name,
          typeof value === 'string' ? transform(value) : value,
        ]);
        return next({ body: JSON.stringify(Object.fromEntries(stored)) });
      }),
    ],
  };
}

/** The decoded petId of a `/pets/{petId}` path, if the path is one and its escapes are sound. */
function petIdOf(request: OverrideRequest): string | undefined {
  const raw = PET_PATH.exec(request.path)?.[1];
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** Where the first JSON value of a text ends (depth back to zero outside strings), as a lazy parser stops. */
function endOfFirstValue(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const character = text[i];
    if (inString) {
      if (character === '\\') i += 1;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === '{' || character === '[') depth += 1;
    else if ((character === '}' || character === ']') && --depth === 0) return i + 1;
  }
  return text.length;
}

function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (const character of text) {
    if (character === '[' || character === '{') deepest = Math.max(deepest, ++depth);
    else if (character === ']' || character === '}') depth -= 1;
  }
  return deepest;
}

/** The value of a decimal digit of any script: Unicode's digits come in runs of ten, zero first. */
function digitValue(character: string): number {
  const codePoint = character.codePointAt(0)!;
  let zero = codePoint;
  while (codePoint - zero < 9 && /\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero -= 1;
  return codePoint - zero;
}

/** An id as a lenient parser reads it: JavaScript's `Number()` plus any script's digits (like Python's `int`). */
function lenientInteger(raw: string): number | undefined {
  const ascii = [...raw.normalize('NFKC')]
    .map((character) => (/\p{Nd}/u.test(character) ? String(digitValue(character)) : character))
    .join('');
  const number = Number(ascii.replace(/_/g, ''));
  return Number.isInteger(number) && number > 0 ? number : undefined;
}

/** Variants that store something other than what was sent, parse leniently, or mishandle parameters. */
export const INPUT_HANDLING_VARIANTS: BrokenVariant[] = [
  {
    name: 'names-trimmed',
    breaks: 'stored_as_sent',
    does: 'whitespace around string fields is trimmed before storing',
    caughtBy: ['valid_bodies_stored_as_sent'],
    fake: storingStrings((value) => value.trim() || value),
  },
  {
    name: 'unicode-normalised',
    breaks: 'stored_as_sent',
    does: 'string fields are stored in Unicode normal form C (a decomposed é comes back composed)',
    caughtBy: ['valid_bodies_stored_as_sent'],
    fake: storingStrings((value) => value.normalize('NFC')),
  },
  {
    name: 'astral-characters-replaced',
    breaks: 'stored_as_sent',
    does: 'characters beyond the BMP are stored as U+FFFD (a three-byte utf8 column)',
    caughtBy: ['valid_bodies_stored_as_sent'],
    fake: storingStrings((value) => value.replace(/[\u{10000}-\u{10ffff}]/gu, '\ufffd')),
  },
  {
    name: 'control-characters-stripped',
    breaks: 'stored_as_sent',
    does: 'control characters are removed from stored strings',
    caughtBy: ['valid_bodies_stored_as_sent'],
    // eslint-disable-next-line no-control-regex -- the variant strips exactly the C0 control characters
    fake: storingStrings((value) => value.replace(/[\u0000-\u001f]/g, '') || value),
  },
  {
    name: 'length-counted-in-utf16-units',
    breaks: 'valid_bodies_stored_as_sent',
    does: 'maxLength is counted in UTF-16 code units, so 100 astral characters are refused as 200',
    caughtBy: ['valid_bodies_stored_as_sent'],
    fake: onCreate(async (request, next) => {
      const body = (await request.json()) as Fields | undefined;
      const tooLong = typeof body?.name === 'string' && body.name.length > 100;
      return next(tooLong ? { body: JSON.stringify({ ...body, name: 'x'.repeat(101) }) } : undefined);
    }),
  },
  {
    name: 'length-counted-in-graphemes',
    breaks: 'refused_never_admitted',
    does: 'maxLength is counted in grapheme clusters, so a name of 101+ code points with combining marks is accepted (and cut to 100)',
    caughtBy: ['invalid_body_rejected'],
    fake: onCreate(async (request, next) => {
      const body = (await request.json()) as Fields | undefined;
      if (typeof body?.name !== 'string') return next();
      const graphemes = [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(body.name)].length;
      if ([...body.name].length <= 100 || graphemes > 100) return next();
      return next({ body: JSON.stringify({ ...body, name: [...body.name].slice(0, 100).join('') }) });
    }),
  },
  {
    name: 'list-drops-description',
    breaks: 'stored_as_sent',
    does: 'the list leaves out descriptions (the create answer has them)',
    caughtBy: ['valid_bodies_stored_as_sent'],
    fake: {
      overrides: [
        override.get('/categories', async ({ next }) =>
          withJson(await next(), (json) => (json as Fields[]).map(({ description: _dropped, ...rest }) => rest)),
        ),
      ],
    },
  },
  {
    name: 'trailing-data-ignored',
    breaks: 'refused_never_admitted',
    does: 'the body is parsed up to the end of its first JSON value and the rest ignored',
    caughtBy: ['malformed_json_rejected'],
    fake: onCreate(async (request, next) => {
      const text = await request.text();
      const end = endOfFirstValue(text);
      return next(end < text.trimEnd().length ? { body: text.slice(0, end) } : undefined);
    }),
  },
  {
    name: 'invalid-utf8-replaced',
    breaks: 'refused_never_admitted',
    does: 'bodies are decoded leniently: bytes that are not UTF-8 become U+FFFD instead of a 400',
    caughtBy: ['malformed_json_rejected'],
    fake: onCreate(async (request, next) => {
      const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(await request.bytes());
      return next({ body: lenient });
    }),
  },
  {
    name: 'deep-nesting-crashes',
    breaks: 'no_server_error',
    does: 'a body nested more than 1,000 deep overflows a recursive parser: 500',
    caughtBy: ['malformed_json_rejected'],
    fake: onCreate(async (request, next) =>
      nestingDepth(await request.text()) > 1_000
        ? textAnswer(500, 'RecursionError: maximum recursion depth exceeded', 'text/plain')
        : next(),
    ),
  },
  {
    name: 'path-ids-parsed-leniently',
    breaks: 'invalid_parameters_rejected',
    does: 'petId is read with a lenient number parser: 0x10, 1e3, " 1", 1_000 and other scripts\' digits are ids',
    caughtBy: ['invalid_parameters_rejected'],
    fake: wrapping((request, next) => {
      const decoded = petIdOf(request);
      const id = decoded === undefined || /^\d+$/.test(decoded) ? undefined : lenientInteger(decoded);
      return next(id === undefined ? undefined : { path: `/pets/${id}` });
    }),
  },
  {
    name: 'long-names-crash',
    breaks: 'no_server_error',
    does: 'a name past 255 code points answers 500 (it overflows a narrower column) instead of 400 like any name past 100',
    caughtBy: ['invalid_body_rejected'],
    fake: onCreate(async (request, next) => {
      const name = ((await request.json()) as Fields | undefined)?.name;
      if (typeof name !== 'string' || [...name].length <= 255) return next();
      return textAnswer(500, 'value too long for type character varying(255)', 'text/plain');
    }),
  },
  {
    name: 'large-ids-refused',
    breaks: 'valid_parameters_accepted',
    does: 'petId past 2^53 is refused with 400 (it is parsed as a double), though int64 allows it',
    caughtBy: ['valid_parameters_accepted'],
    fake: wrapping((request, next) => {
      const raw = PET_PATH.exec(request.path)?.[1];
      if (raw === undefined || !/^\d+$/.test(raw) || Number.isSafeInteger(Number(raw))) return next();
      return next({ path: '/pets/not-a-safe-integer' });
    }),
  },
  {
    name: 'unknown-id-answers-another-pet',
    breaks: 'valid_parameters_accepted',
    does: 'an unknown petId is answered with the first pet instead of 404',
    caughtBy: ['valid_parameters_accepted'],
    fake: {
      overrides: [
        override.get('/pets/{petId}', async ({ next }) => {
          const answer = await next();
          return answer.status === 404 ? next({ path: '/pets/1' }) : answer;
        }),
      ],
    },
  },
  {
    name: 'query-decoding-crashes',
    breaks: 'no_server_error',
    does: 'a query string with a malformed percent-escape crashes the service (500)',
    caughtBy: ['unknown_query_ignored'],
    fake: wrapping(async (request, next) => {
      try {
        decodeURIComponent(request.queryString);
      } catch {
        return textAnswer(500, 'URIError: URI malformed', 'text/plain');
      }
      return next();
    }),
  },
];
