/**
 * One word of a bash command, built from parts: literal text, sent byte for byte, and shell expressions
 * (`${PETSTORE_API_KEY}`, `${PETSTORE_API_KEY^^}`) that bash expands inside double quotes. A reproduction
 * must send what the suite sent: text that is printable ASCII goes in quotes as it is, anything else
 * (U+00A0, a tab, a control character, a byte that is not UTF-8) as an ANSI-C `$'\xHH'` escape, and a
 * run of one character (17,000 spaces, 7,000 brackets) as a `printf` that rebuilds it.
 */
export type WordPart = { literal: string | Uint8Array } | { expression: string };

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// A character printf may repeat from its format without escaping (not %, \, ', a control character, or
// '-', which would open the format as an option).
const REPEATABLE = /[A-Za-z0-9 [\]{}"=+/,.:;_]/;
const SHORTEST_RUN = 64;

const utf8 = new TextEncoder();

/** Text in single quotes, a single quote as `'\''`. */
export function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Bytes as an ANSI-C quoted string: printable ASCII as itself, every other byte as `\xHH`. */
function ansiC(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    if (char === '\\' || char === "'") out += `\\${char}`;
    else if (byte >= 0x20 && byte <= 0x7e) out += char;
    else out += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return `$'${out}'`;
}

/** A literal, split into runs of one repeatable character (rebuilt by printf) and the text between them. */
function literalWords(text: string): string[] {
  const words: string[] = [];
  const runs = new RegExp(`(${REPEATABLE.source})\\1{${SHORTEST_RUN - 1},}`, 'g');
  let at = 0;
  for (const match of text.matchAll(runs)) {
    if (match.index > at) words.push(quotedText(text.slice(at, match.index)));
    // `printf 'x%.0s' {1..N}` prints x once per argument: N times, whatever x is in the set above.
    words.push(`"$(printf '${match[1]}%.0s' {1..${match[0].length}})"`);
    at = match.index + match[0].length;
  }
  if (at < text.length) words.push(quotedText(text.slice(at)));
  return words;
}

function quotedText(text: string): string {
  return PRINTABLE_ASCII.test(text) ? singleQuoted(text) : ansiC(utf8.encode(text));
}

/**
 * The word, ready to paste into bash: parts side by side (bash joins adjacent quoted strings into one
 * word). Printable text with expressions reads as one double-quoted string.
 * @example shellWord([{ literal: 'Authorization: Bearer ' }, { expression: '${PETSTORE_API_KEY}' }, { literal: '\u00a0' }])
 * // 'Authorization: Bearer '"${PETSTORE_API_KEY}"$'\xc2\xa0'
 */
export function shellWord(parts: readonly WordPart[]): string {
  const texts = parts.map((part) => ('literal' in part && typeof part.literal === 'string' ? part.literal : ''));
  const simple = parts.every(
    (part) => !('literal' in part) || (typeof part.literal === 'string' && PRINTABLE_ASCII.test(part.literal)),
  );
  const longest = Math.max(0, ...texts.map((text) => text.length));
  if (simple && parts.some((part) => 'expression' in part) && longest < SHORTEST_RUN)
    return `"${parts.map((part) => ('expression' in part ? part.expression : part.literal.toString().replace(/["$`\\]/g, '\\$&'))).join('')}"`;
  return parts
    .flatMap((part) => {
      if ('expression' in part) return [`"${part.expression}"`];
      return typeof part.literal === 'string' ? literalWords(part.literal) : [ansiC(part.literal)];
    })
    .join('');
}

/** A value with every occurrence of a secret shown as an expression (the secret itself never printed). */
export function withSecret(value: string, secret: string | undefined, expression: string): WordPart[] {
  if (!secret || !value.includes(secret)) return [{ literal: value }];
  return value
    .split(secret)
    .flatMap((text, index): WordPart[] => [...(index > 0 ? [{ expression }] : []), { literal: text }])
    .filter((part) => !('literal' in part) || part.literal.length > 0);
}
