import type { SentRequest } from './exchange.js';

const LONG_BODY = 2_000;

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The request as a `curl` command a person can paste; the API key is replaced by `$PETSTORE_API_KEY`.
 * @example curlCommand(sent, 'free-test-key') // curl -X GET 'http://…/v1/categories' -H "Authorization: Bearer $PETSTORE_API_KEY"
 */
export function curlCommand(request: SentRequest, secret?: string): string {
  const parts = ['curl', '-X', request.method, shellQuote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    if (secret && value.includes(secret)) {
      // Double quotes so the shell expands the variable; the key itself never reaches a report.
      parts.push('-H', `"${name}: ${value.split(secret).join('$PETSTORE_API_KEY')}"`);
    } else {
      parts.push('-H', shellQuote(`${name}: ${value}`));
    }
  }
  if (request.body !== undefined) {
    const body = request.body;
    if (body.length > LONG_BODY && body.trim().length < LONG_BODY) {
      // Padding is what makes such a body long; printf rebuilds it instead of pasting kilobytes of spaces.
      const head = body.trimEnd();
      parts.push('--data-binary', `"$(printf '%s%${body.length - head.length}s' ${shellQuote(head)} '')"`);
    } else if (body.length > LONG_BODY) {
      parts.push('--data-binary', `${shellQuote(body.slice(0, 200))}  # first 200 of ${body.length} bytes`);
    } else {
      parts.push('--data-binary', shellQuote(body));
    }
  }
  return parts.join(' ');
}
