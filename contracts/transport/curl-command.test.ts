import { describe, expect, it } from '@jest/globals';
import { curlCommand } from './curl-command.js';

describe('curlCommand', () => {
  it('replaces the key with ${PETSTORE_API_KEY}, in double quotes so the shell expands it', () => {
    const command = curlCommand(
      { method: 'GET', url: 'http://127.0.0.1:4010/v1/categories', headers: { Authorization: 'Bearer s3cret-key' } },
      's3cret-key',
    );
    expect(command).toBe(
      `curl -X GET 'http://127.0.0.1:4010/v1/categories' -H "Authorization: Bearer \${PETSTORE_API_KEY}" -H 'Accept:'`,
    );
    expect(command).not.toContain('s3cret-key');
  });

  it('prints a value derived from the key as the shell expression given, never the value', () => {
    const command = curlCommand(
      {
        method: 'GET',
        url: 'http://x/v1/categories',
        headers: { Authorization: 'Bearer S3CRET-KEY' },
        shown: { Authorization: 'Bearer ${PETSTORE_API_KEY^^}' },
      },
      's3cret-key',
    );
    expect(command).toBe(
      `curl -X GET 'http://x/v1/categories' -H "Authorization: Bearer \${PETSTORE_API_KEY^^}" -H 'Accept:'`,
    );
  });

  it('replaces a key sent in the query, as written or percent-encoded, and escapes the rest for double quotes', () => {
    for (const url of [
      'http://x/v1/categories?api_key=k+y/1&q=$HOME',
      'http://x/v1/categories?api_key=k%2By%2F1&q=$HOME',
    ]) {
      const command = curlCommand({ method: 'GET', url, headers: {} }, 'k+y/1');
      expect(command).toBe(`curl -X GET "http://x/v1/categories?api_key=\${PETSTORE_API_KEY}&q=\\$HOME" -H 'Accept:'`);
    }
  });

  it('escapes bodies that are not UTF-8 byte for byte, read through process substitution', () => {
    const command = curlCommand({
      method: 'POST',
      url: 'http://x/v1/categories',
      headers: {},
      body: new Uint8Array([0x7b, 0xff, 0x00, 0x7d]),
    });
    expect(command).toBe(
      `curl -X POST 'http://x/v1/categories' -H 'Accept:' -H 'Content-Type:' --data-binary @<(printf '\\x7b\\xff\\x00\\x7d')`,
    );
  });

  it('quotes bodies for the shell, single quotes included', () => {
    const command = curlCommand({
      method: 'POST',
      url: 'http://x/v1/categories',
      headers: { 'Content-Type': 'application/json' },
      body: `{'name': 'x'}`,
    });
    expect(command).toBe(
      `curl -X POST 'http://x/v1/categories' -H 'Content-Type: application/json' -H 'Accept:' --data-binary '{'\\''name'\\'': '\\''x'\\''}'`,
    );
  });

  it('rebuilds a body padded with kilobytes of spaces with printf, byte for byte', () => {
    const body = `{"name":"big"}${' '.repeat(17_000)}`;
    const command = curlCommand({ method: 'POST', url: 'http://x/v1/categories', headers: {}, body });
    expect(command).toContain(`--data-binary '{"name":"big"}'"$(printf ' %.0s' {1..17000})"`);
    expect(command.length).toBeLessThan(200);
  });

  it("quotes a field's U+00A0 as the one byte the senders write ($'\\xa0'), next to the key as the variable", () => {
    const command = curlCommand(
      { method: 'GET', url: 'http://x/v1/categories', headers: { Authorization: 'Bearer s3cret-key\u00a0' } },
      's3cret-key',
    );
    expect(command).toBe(
      `curl -X GET 'http://x/v1/categories' -H 'Authorization: Bearer '"\${PETSTORE_API_KEY}"$'\\xa0' -H 'Accept:'`,
    );
  });

  it('sends a field given twice as two -H, and a method fetch would rewrite as it is', () => {
    const command = curlCommand(
      { method: 'get', url: 'http://x/v1/categories', headers: { Authorization: 'Bearer k1\nBearer s3cret-key' } },
      's3cret-key',
    );
    expect(command).toBe(
      `curl -X get 'http://x/v1/categories' -H 'Authorization: Bearer k1' -H "Authorization: Bearer \${PETSTORE_API_KEY}" -H 'Accept:'`,
    );
  });
});
