import { InvalidArgumentError } from 'commander';

// RFC 9110 §5.1: a field name is a token.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * One `--header 'Name: value'`, added to those of earlier uses of the flag: a header a gateway or
 * tracing needs on every request. Refused: a name that is not a token, a line break (it would be a
 * second header), and `Authorization`/`Host`, which the run sets itself.
 * @example extraHeader('X-Trace-Id: ci-42') // [['X-Trace-Id', 'ci-42']]
 */
export function extraHeader(value: string, previous: Array<[string, string]> = []): Array<[string, string]> {
  const colon = value.indexOf(':');
  const name = colon < 0 ? value.trim() : value.slice(0, colon).trim();
  const text = colon < 0 ? '' : value.slice(colon + 1).trim();
  if (colon < 0 || !TOKEN.test(name))
    throw new InvalidArgumentError(
      // The value is not echoed: a gateway's header is often a secret.
      "--header must be 'Name: value' with a name of letters, digits and - (what was given is not shown: it may be a secret)",
    );
  if (/[\r\n\0]/.test(text)) throw new InvalidArgumentError(`--header ${name}: its value holds a line break`);
  if (['authorization', 'host', 'content-length', 'transfer-encoding'].includes(name.toLowerCase()))
    throw new InvalidArgumentError(`--header ${name}: the run sets it itself (the key goes in --api-key)`);
  return [...previous, [name, text]];
}
