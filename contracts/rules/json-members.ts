/**
 * The member names that occur more than once in one object of a JSON text (RFC 8259 §4), with the
 * path of the object (`$`, `$[0]`, `$.category`). `JSON.parse` keeps the last value silently, so the
 * duplicates are read from the text. Only meaningful for valid JSON (parse it first); on anything else
 * it stops at the end of the text.
 * @example duplicateMemberNames('{"a":1,"a":2}') // ['$.a']
 */
export function duplicateMemberNames(text: string): string[] {
  const found: string[] = [];
  let at = 0;
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at += 1;
  };
  const string = (): string => {
    const start = at;
    at += 1;
    while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    at += 1;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const value = (path: string): void => {
    space();
    const char = text[at];
    if (char === '{') {
      at += 1;
      const names = new Set<string>();
      space();
      if (text[at] === '}') {
        at += 1;
        return;
      }
      while (at < text.length) {
        space();
        const name = string();
        // Escaped spellings of one name are the same name (RFC 8259 §7): compared after decoding.
        if (names.has(name)) found.push(`${path}.${name}`);
        names.add(name);
        space();
        at += 1; // ':'
        value(`${path}.${name}`);
        space();
        if (text[at++] === '}') return;
      }
      return;
    }
    if (char === '[') {
      at += 1;
      space();
      if (text[at] === ']') {
        at += 1;
        return;
      }
      for (let index = 0; at < text.length; index += 1) {
        value(`${path}[${index}]`);
        space();
        if (text[at++] === ']') return;
      }
      return;
    }
    if (char === '"') {
      string();
      return;
    }
    while (at < text.length && !',]} \t\n\r'.includes(text[at]!)) at += 1;
  };
  value('$');
  return found;
}
