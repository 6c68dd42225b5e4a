import fc from 'fast-check';

/** A request body that is not a JSON text (RFC 8259), and how it is broken. */
export interface MalformedBody {
  breaks: string;
  bytes: Uint8Array;
}

const utf8 = new TextEncoder();

// Byte sequences that are not UTF-8: a lone continuation, an overlong `/`, a UTF-16 surrogate encoded
// as UTF-8 (CESU), a sequence cut short, bytes UTF-8 never uses.
const INVALID_UTF8 = [[0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xff], [0xfe, 0xfe]];
// What can follow a complete JSON text and make it not one (whitespace alone is allowed).
const TRAILING = [' x', '}', ']', ',', ',{}', '{}', '"', 'null', '\u0000', '\u00a0', '/'];
// Deep enough to crash a recursive parser, small enough to stay under the 16 KiB body limit.
const MAX_DEPTH = 7_000;

function utf16(text: string, littleEndian: boolean): Uint8Array {
  const bytes = new Uint8Array(2 + text.length * 2);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, 0xfeff, littleEndian);
  for (let i = 0; i < text.length; i += 1) view.setUint16(2 + i * 2, text.charCodeAt(i), littleEndian);
  return bytes;
}

function spliced(text: string, at: number, insert: number[]): Uint8Array {
  const bytes = utf8.encode(text);
  const cut = Math.min(Math.max(at, 0), bytes.length);
  return new Uint8Array([...bytes.subarray(0, cut), ...insert, ...bytes.subarray(cut)]);
}

/** The position just inside the first string value of a JSON text, where foreign bytes go. */
function insideFirstString(text: string): number {
  const colon = text.indexOf(':"');
  return colon === -1 ? Math.floor(text.length / 2) : utf8.encode(text.slice(0, colon + 2)).length;
}

/**
 * Malformed request bodies derived from valid ones: empty, truncated, trailing data, nested thousands
 * deep, invalid UTF-8, UTF-16, JavaScript rather than JSON (single quotes, NaN, comments, a trailing
 * comma), and numbers beyond every range; one arbitrary per kind. Each must be answered 400, never 5xx.
 * @example fc.oneof(...malformedBodies(validValues(newCategorySchema)))
 */
export function malformedBodies(valid: fc.Arbitrary<unknown>): Array<fc.Arbitrary<MalformedBody>> {
  const texts = valid.map((value) => JSON.stringify(value)).filter((text) => text.length >= 2);
  return [
    fc.constant({ breaks: 'empty body', bytes: new Uint8Array() }),
    fc.constantFrom('   ', '\n').map((text) => ({ breaks: 'whitespace only', bytes: utf8.encode(text) })),
    texts.chain((text) =>
      fc.integer({ min: 1, max: text.length - 1 }).map((cut) => ({
        breaks: `truncated after ${cut} of ${text.length} characters`,
        bytes: utf8.encode(text.slice(0, cut)),
      })),
    ),
    fc
      .tuple(texts, fc.constantFrom(...TRAILING))
      .map(([text, tail]) => ({ breaks: `trailing data ${JSON.stringify(tail)}`, bytes: utf8.encode(text + tail) })),
    fc.tuple(fc.integer({ min: 1_000, max: MAX_DEPTH }), fc.boolean()).map(([depth, inValue]) => {
      const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      return {
        breaks: `arrays nested ${depth} deep${inValue ? ' in a property' : ''}`,
        bytes: utf8.encode(inValue ? `{"name":${nested}}` : nested),
      };
    }),
    fc.tuple(texts, fc.constantFrom(...INVALID_UTF8)).map(([text, bytes]) => ({
      breaks: `invalid UTF-8 ${bytes.map((byte) => byte.toString(16).padStart(2, '0')).join(' ')}`,
      bytes: spliced(text, insideFirstString(text), bytes),
    })),
    fc.tuple(texts, fc.boolean()).map(([text, littleEndian]) => ({
      breaks: `UTF-16${littleEndian ? 'LE' : 'BE'} with a BOM`,
      bytes: utf16(text, littleEndian),
    })),
    texts.map((text) => ({ breaks: 'single quotes', bytes: utf8.encode(text.replace(/"/g, "'")) })),
    texts.map((text) => ({ breaks: 'a trailing comma', bytes: utf8.encode(text.replace(/([}\]])$/, ',$1')) })),
    texts.map((text) => ({ breaks: 'a comment', bytes: utf8.encode(`/* c */${text}`) })),
    fc
      .constantFrom('NaN', 'Infinity', '-Infinity', 'undefined', '0x10')
      .map((literal) => ({ breaks: `the literal ${literal}`, bytes: utf8.encode(`{"name":${literal}}`) })),
    fc
      .constantFrom('1e400', '-1e400', '123456789012345678901234567890')
      .map((number) => ({ breaks: `the number ${number}`, bytes: utf8.encode(`{"name":${number}}`) })),
  ];
}
