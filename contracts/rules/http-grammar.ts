// The few ABNF productions of RFC 9110, RFC 9111 and RFC 6750 the rule table judges values by. Written
// from the grammar rather than taken from a parser library on purpose: libraries are lenient where a
// client is not (they trim, unquote and skip what they do not understand), and a rule must see exactly
// what was sent.

/** tchar (RFC 9110 §5.6.2): a token is one or more of these. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** token68 (RFC 9110 §11.2) and b64token (RFC 6750 §2.1) share this shape. */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Whether a string is a `token` (RFC 9110 §5.6.2). */
export function isToken(value: string): boolean {
  return TOKEN.test(value);
}

/** Whether a string is a `b64token` (RFC 6750 §2.1), the only thing a bearer credential may carry. */
export function isB64Token(value: string): boolean {
  return TOKEN68.test(value);
}

/**
 * Whether an `Authorization` value is a bearer credential as RFC 6750 §2.1 writes it:
 * `Bearer 1*SP b64token` (the scheme in any case, RFC 9110 §11.1; whitespace around the whole value is
 * not part of it, RFC 9110 §5.5). Anything else (a comma list, auth-params, a quoted token, a tab, a
 * second token) is not a bearer credential at all.
 */
export function isBearerCredential(value: string): boolean {
  const match = /^[ \t]*([^ \t]+) +([^ ]+?)[ \t]*$/.exec(value);
  return match !== null && match[1]!.toLowerCase() === 'bearer' && isB64Token(match[2]!);
}

/**
 * Whether an `Authorization` value that is not a bearer credential still carries one token byte for byte,
 * so that a recipient may recover it (RFC 9110 §2.4: "a recipient MAY attempt to recover a usable protocol
 * element from an invalid construct"): the scheme `Bearer` (any case, a `:` after it aside), then any run of
 * whitespace (a tab, U+00A0: what a `\s` split takes), then one b64token, then at most the SP and HTAB
 * HTTP strips from a field's edges. Admitting such a value takes the key that was sent; admitting any other
 * malformed value takes a token that is not the one sent (`key,`, `token=key`, `key<U+00A0>`, `key extra`).
 * @example recoversBearerToken('Bearer\tabc') // true
 * @example recoversBearerToken('Bearer abc\u00a0') // false
 */
export function recoversBearerToken(value: string): boolean {
  const match = /^[ \t]*(\S+)\s+(\S+)[ \t]*$/u.exec(value);
  return match !== null && /^bearer:?$/i.test(match[1]!) && isB64Token(match[2]!);
}

/** One `auth-param` or `cache-directive`: a name and its value as sent (unquoted), or undefined when it has none. */
export interface Parameter {
  name: string;
  value?: string;
  quoted: boolean;
}

/** A challenge (RFC 9110 §11.3): its scheme and parameters, or why it cannot be read. */
export type Challenge = { scheme: string; token68?: string; params: Parameter[] } | { error: string };

/** Reads one quoted-string at `text[at]` (which is `"`); returns its value and the index after it. */
function quotedString(text: string, at: number): { value: string; end: number } | undefined {
  let value = '';
  for (let index = at + 1; index < text.length; index += 1) {
    const char = text[index]!;
    if (char === '"') return { value, end: index + 1 };
    if (char === '\\') {
      index += 1;
      if (index >= text.length) return undefined;
      value += text[index];
    } else if (char < ' ' && char !== '\t') return undefined;
    else value += char;
  }
  return undefined;
}

/**
 * A comma-separated list of `name [BWS "=" BWS (token / quoted-string)]` (auth-params, RFC 9110 §11.2;
 * cache directives, RFC 9111 §5.2), or the reason it is malformed. Empty list elements are allowed
 * (RFC 9110 §5.6.1).
 */
export function parameterList(text: string, { valueRequired }: { valueRequired: boolean }): Parameter[] | string {
  const params: Parameter[] = [];
  let at = 0;
  const skip = () => {
    while (at < text.length && (text[at] === ' ' || text[at] === '\t')) at += 1;
  };
  while (at < text.length) {
    skip();
    if (text[at] === ',') {
      at += 1;
      continue;
    }
    if (at >= text.length) break;
    const name = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/.exec(text.slice(at))?.[0];
    if (!name) return `"${text.slice(at, at + 20)}" does not start with a token`;
    at += name.length;
    skip();
    if (text[at] !== '=') {
      if (valueRequired) return `the parameter ${name} has no "=" value`;
      params.push({ name, quoted: false });
    } else {
      at += 1;
      skip();
      if (text[at] === '"') {
        const quoted = quotedString(text, at);
        if (!quoted) return `the quoted value of ${name} is not closed or holds a control character`;
        params.push({ name, value: quoted.value, quoted: true });
        at = quoted.end;
      } else {
        const value = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/.exec(text.slice(at))?.[0];
        if (!value) return `the value of ${name} is neither a token nor a quoted-string`;
        params.push({ name, value, quoted: false });
        at += value.length;
      }
    }
    skip();
    if (at < text.length && text[at] !== ',') return `"${text.slice(at, at + 20)}" follows ${name} without a comma`;
  }
  return params;
}

/**
 * The first challenge of a `WWW-Authenticate` value (RFC 9110 §11.3, §11.6.1): `auth-scheme [ 1*SP
 * ( token68 / #auth-param ) ]`. Only the first is read: this interface declares one scheme.
 */
export function firstChallenge(value: string): Challenge {
  const match = /^[ \t]*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)(?: +(.*))?$/.exec(value);
  if (!match) return { error: `"${value}" does not start with an auth-scheme token` };
  const [, scheme, whole = ''] = match;
  const rest = whole.slice(0, nextChallengeAt(whole));
  if (rest.trim() === '') return { scheme: scheme!, params: [] };
  if (isB64Token(rest.trim())) return { scheme: scheme!, token68: rest.trim(), params: [] };
  const params = parameterList(rest, { valueRequired: true });
  if (typeof params === 'string') return { error: params };
  // A second challenge starts with a scheme followed by a space: everything before it belongs to the first.
  return { scheme: scheme!, params };
}

/**
 * Where a second challenge starts in what follows the first one's scheme (`, Basic realm="x"`): at a
 * comma outside a quoted-string followed by a scheme and a space. The length when there is none.
 */
function nextChallengeAt(text: string): number {
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted && char === '\\') index += 1;
    else if (char === '"') quoted = !quoted;
    else if (
      !quoted &&
      char === ',' &&
      /^\s*[!#$%&'*+\-.^_`|~0-9A-Za-z]+ +[!#$%&'*+\-.^_`|~0-9A-Za-z/]/.test(text.slice(index + 1))
    )
      return index;
  }
  return text.length;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;

/** The epoch second of an IMF-fixdate (RFC 9110 §5.6.7, the form a sender MUST generate), or undefined. */
export function httpDateSeconds(value: string): number | undefined {
  const match = IMF_FIXDATE.exec(value);
  if (!match) return undefined;
  const [, weekday, day, month, year, hour, minute, second] = match;
  const monthIndex = MONTHS.indexOf(month!);
  if (monthIndex < 0) return undefined;
  const date = new Date(Date.UTC(Number(year), monthIndex, Number(day), Number(hour), Number(minute), Number(second)));
  // A date that rolls over (31 Feb) or names the wrong weekday is not that date.
  if (date.getUTCDate() !== Number(day) || date.toUTCString().slice(0, 3) !== weekday) return undefined;
  return date.getTime() / 1000;
}

/** Whether a value is an `entity-tag` (RFC 9110 §8.8.3): `[ "W/" ] DQUOTE *etagc DQUOTE`. */
export function isEntityTag(value: string): boolean {
  // etagc = %x21 / %x23-7E / obs-text
  return /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/.test(value);
}
