import { isUtf8 } from 'node:buffer';
import type { SentRequest } from '../core/exchange.js';

const LONG_BODY = 2_000;

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The URL quoted for the shell. One carrying the key (a check sends it in the query on purpose), as
 * written or percent-encoded, is double-quoted with the key as the variable, so the key never shows.
 */
function quotedUrl(url: string, secret: string | undefined): string {
  const spelt = secret && [secret, encodeURIComponent(secret)].find((form) => url.includes(form));
  if (!spelt) return shellQuote(url);
  return `"${url
    .split(spelt)
    .map((part) => part.replace(/["$`\\]/g, '\\$&'))
    .join('${PETSTORE_API_KEY}')}"`;
}

/**
 * The request as a `curl` command a person can paste; the API key is replaced by `${PETSTORE_API_KEY}`.
 * @example curlCommand(sent, 'free-test-key') // curl -X GET 'http://…/v1/categories' -H "Authorization: Bearer ${PETSTORE_API_KEY}"
 */
export function curlCommand(request: SentRequest, secret?: string): string {
  const parts = ['curl', '-X', request.method, quotedUrl(request.url, secret)];
  for (const [name, value] of Object.entries(request.headers)) {
    const shown = request.shown?.[name];
    if (shown !== undefined) {
      parts.push('-H', `"${name}: ${shown}"`);
    } else if (secret && value.includes(secret)) {
      // Double quotes so the shell expands the variable (braced: text may follow); the key never reaches a report.
      parts.push('-H', `"${name}: ${value.split(secret).join('${PETSTORE_API_KEY}')}"`);
    } else {
      parts.push('-H', shellQuote(`${name}: ${value}`));
    }
  }
  if (request.body instanceof Uint8Array && !isUtf8(request.body)) {
    // Bytes that are not UTF-8 (a test of the service's decoding) survive only as printf escapes, read
    // through a file (bash process substitution) so NUL bytes and trailing newlines arrive too.
    const escaped = [...request.body.subarray(0, LONG_BODY)]
      .map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`)
      .join('');
    parts.push('--data-binary', `@<(printf '${escaped}')`);
  } else if (request.body !== undefined) {
    const body = typeof request.body === 'string' ? request.body : new TextDecoder().decode(request.body);
    if (body.length > LONG_BODY && body.trim().length < LONG_BODY) {
      // Padding is what makes such a body long; printf rebuilds it instead of pasting kilobytes of spaces.
      const head = body.trimEnd();
      parts.push('--data-binary', `"$(printf '%s%${body.length - head.length}s' ${shellQuote(head)} '')"`);
    } else if (body.length > LONG_BODY) {
      parts.push('--data-binary', `${shellQuote(body.slice(0, 200))}  # first 200 of ${body.length} bytes`);
    } else if (secret && [secret, encodeURIComponent(secret)].some((form) => body.includes(form))) {
      // A key sent in the body (a check tries it there on purpose) shows as the variable, as in a header.
      const spelt = [secret, encodeURIComponent(secret)].find((form) => body.includes(form))!;
      parts.push(
        '--data-binary',
        `"${body
          .split(spelt)
          .map((part) => part.replace(/["$`\\]/g, '\\$&'))
          .join('${PETSTORE_API_KEY}')}"`,
      );
    } else {
      parts.push('--data-binary', shellQuote(body));
    }
  }
  return parts.join(' ');
}
