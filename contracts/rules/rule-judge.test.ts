import { describe, expect, it } from '@jest/globals';
import { parsedJson, type Exchange } from '../core/exchange.js';
import { isBearerCredential, firstChallenge, recoversBearerToken } from './http-grammar.js';
import { duplicateMemberNames } from './json-members.js';
import { EXCHANGE_RULES, ruleBreaks } from './rule-judge.js';
import { RULES, RULE_NAMES, type RuleName } from './rule-table.js';

const KEPT_HEADERS = {
  date: 'Wed, 25 Nov 2026 03:00:00 GMT',
  'content-type': 'application/json',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** A well-behaved answer to `GET /v1/categories` with a key, edited by `change`. */
function exchange(change: Partial<Exchange> & { requestHeaders?: Record<string, string>; method?: string } = {}) {
  const text = change.text ?? '[]';
  const bytes = change.bytes ?? new TextEncoder().encode(text);
  const headers = { ...KEPT_HEADERS, 'content-length': String(bytes.length), ...change.headers };
  return {
    request: {
      method: change.method ?? 'GET',
      url: 'http://127.0.0.1:1/v1/categories',
      headers: change.requestHeaders ?? { Authorization: 'Bearer free-test-key' },
    },
    status: change.status ?? 200,
    headers,
    text,
    json: parsedJson(text),
    bytes,
  } satisfies Exchange;
}

const broken = (ex: Exchange, strict = false) => ruleBreaks(ex, strict).map(({ rule }) => rule);

const CHALLENGE = { 'www-authenticate': 'Bearer realm="petstore", error="invalid_token"' };

/** One exchange that breaks each rule judged per exchange, and only that rule among the MUSTs. */
const BREAKS: Array<[RuleName, Exchange]> = [
  ['content_type_on_content', exchange({ headers: { 'content-type': undefined as unknown as string } })],
  ['content_is_its_media_type', exchange({ text: '[1,' })],
  ['content_length_matches', exchange({ headers: { 'content-length': '3' } })],
  ['json_is_utf8_without_bom', exchange({ bytes: new Uint8Array([0xef, 0xbb, 0xbf, 0x5b, 0x5d]), text: '\ufeff[]' })],
  ['json_is_utf8_without_bom', exchange({ headers: { 'content-type': 'application/json; charset=iso-8859-1' } })],
  ['json_media_type_parameters', exchange({ headers: { 'content-type': 'application/json; version=2' } })],
  ['json_member_names_unique', exchange({ text: '{"id":1,"id":2}' })],
  ['no_content_where_none_can_be', exchange({ method: 'HEAD' })],
  ['no_content_where_none_can_be', exchange({ status: 304 })],
  ['allow_lists_the_methods', exchange({ status: 405 })],
  ['allow_lists_the_methods', exchange({ status: 405, headers: { allow: 'GET; POST' } })],
  ['bearer_challenge_on_401', exchange({ status: 401 })],
  ['bearer_challenge_on_401', exchange({ status: 401, headers: { 'www-authenticate': 'Basic realm="x"' } })],
  ['bearer_challenge_on_401', exchange({ status: 401, headers: { 'www-authenticate': 'Bearer error=bad_key' } })],
  [
    'bearer_challenge_on_401',
    exchange({ status: 401, headers: { 'www-authenticate': 'Bearer realm="a", realm="b"' } }),
  ],
  ['bearer_challenge_on_401', exchange({ status: 401, headers: { 'www-authenticate': 'Bearer realm="a' } })],
  ['bearer_challenge_on_401', exchange({ status: 401, headers: { 'www-authenticate': 'Bearer realm=a b' } })],
  ['no_error_code_without_credentials', exchange({ status: 401, headers: CHALLENGE, requestHeaders: {} })],
  ['retry_after_syntax', exchange({ status: 429, headers: { 'retry-after': '1.5' } })],
  ['entity_tag_syntax', exchange({ headers: { etag: 'abc' } })],
  ['last_modified_syntax', exchange({ headers: { 'last-modified': '2026-11-25T00:00:00Z' } })],
  ['cache_control_syntax', exchange({ headers: { 'cache-control': 'no-store, max-age="60"' } })],
  ['keyed_answers_not_shared', exchange({ headers: { 'cache-control': 'public, max-age=60' } })],
  ['keyed_answers_not_stored', exchange({ headers: { 'cache-control': 'max-age=0' } })],
  ['vary_names_what_selects', exchange({ headers: { 'access-control-allow-origin': 'https://app.example' } })],
  ['no_sniffing', exchange({ headers: { 'x-content-type-options': 'sniff' } })],
  [
    'credential_never_echoed',
    exchange({ status: 401, headers: CHALLENGE, text: '{"message":"bad key free-test-key"}' }),
  ],
  ['credential_never_echoed', exchange({ headers: { 'x-debug-token': 'free-test-key' } })],
  ['server_version_hidden', exchange({ headers: { server: 'nginx/1.25.3' } })],
  ['no_internals_in_answers', exchange({ status: 404, text: '<hr><center>nginx/1.25.3</center>' })],
  [
    'no_internals_in_answers',
    exchange({ status: 500, text: '{"message":"TypeError: x\\n    at parse (/srv/app/dist/index.js:10:5)"}' }),
  ],
  ['no_cookies', exchange({ headers: { 'set-cookie': 'session=abc; HttpOnly' } })],
  ['malformed_credentials_refused', exchange({ requestHeaders: { Authorization: 'Bearer free-test-key, Bearer x' } })],
  ['malformed_credentials_refused', exchange({ requestHeaders: { Authorization: 'Bearer free-test-key\u00a0' } })],
  ['credentials_read_strictly', exchange({ requestHeaders: { Authorization: 'Bearer\tfree-test-key' } })],
  [
    'content_type_syntax',
    exchange({ headers: { 'content-type': 'application/json; charset=utf-8, application/json' } }),
  ],
  ['content_type_syntax', exchange({ headers: { 'content-type': 'json' } })],
  ['date_on_answers', exchange({ headers: { date: '2026-11-25T03:00:00.000Z' } })],
  ['date_on_answers', exchange({ headers: { date: undefined as unknown as string } })],
  ['json_numbers_interoperable', exchange({ text: '[{"id":9007199254740993,"name":"9007199254740993999"}]' })],
  ['date_on_answers', exchange({ headers: { date: 'Wed, 25 Nov 2026 03:00:00 UTC' } })],
  ['location_names_this_interface', exchange({ status: 201, headers: { location: 'https://cdn.example.net/c/4' } })],
  ['location_names_this_interface', exchange({ status: 201, headers: { location: '/categories/<4>' } })],
  [
    'storable_answers_vary_by_credential',
    exchange({ status: 401, headers: { ...CHALLENGE, 'cache-control': 'public, max-age=60' }, requestHeaders: {} }),
  ],
  [
    'storable_answers_vary_by_credential',
    exchange({ status: 404, headers: { 'cache-control': 'max-age=600', vary: 'Accept' }, requestHeaders: {} }),
  ],
  [
    'cors_lets_the_key_through',
    preflight({ 'access-control-allow-headers': '*', 'access-control-allow-methods': 'GET, POST' }),
  ],
  ['cors_lets_the_key_through', preflight({ 'access-control-allow-headers': 'Content-Type' })],
  [
    'cors_exposes_the_spec_headers',
    exchange({
      headers: {
        'access-control-allow-origin': '*',
        'x-ratelimit-limit': '60',
        'access-control-expose-headers': 'Link',
      },
      requestHeaders: { Authorization: 'Bearer free-test-key', Origin: 'https://app.example' },
    }),
  ],
];

/** A browser's preflight for a keyed JSON POST, granted with these headers. */
function preflight(headers: Record<string, string>): Exchange {
  const ex = exchange({
    method: 'OPTIONS',
    status: 204,
    text: '',
    headers: { 'access-control-allow-origin': '*', ...headers },
    requestHeaders: {
      Origin: 'https://app.example',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization,content-type',
    },
  });
  return ex;
}

describe('the rule table', () => {
  it('names a source, a strength and at least one check for every rule', () => {
    for (const name of RULE_NAMES) {
      expect(RULES[name].source).toMatch(/RFC \d+|OWASP|Fetch|spec/);
      expect(RULES[name].checks.length).toBeGreaterThan(0);
    }
  });

  it('judges every rule marked `model` on single exchanges', () => {
    const judged = new Set(EXCHANGE_RULES.map(({ rule }) => rule));
    expect(RULE_NAMES.filter((name) => RULES[name].model && !judged.has(name))).toEqual([]);
  });

  it('finds nothing wrong with a well-behaved answer', () => {
    expect(broken(exchange(), true)).toEqual([]);
    expect(broken(exchange({ status: 401, headers: CHALLENGE, text: '{"code":"invalid_api_key"}' }), true)).toEqual([]);
    expect(broken(exchange({ status: 405, headers: { allow: 'GET, POST' } }), true)).toEqual([]);
    expect(broken(exchange({ headers: { etag: 'W/"1"', 'last-modified': 'Sun, 06 Nov 1994 08:49:37 GMT' } }))).toEqual(
      [],
    );
    expect(
      broken(
        exchange({
          status: 201,
          headers: {
            'content-type': 'application/json; charset="utf-8"',
            date: 'Wed, 25 Nov 2026 03:00:00 GMT',
            location: '/v1/categories/4',
          },
        }),
      ),
    ).toEqual([]);
    expect(
      broken(
        preflight({
          'access-control-allow-headers': 'Authorization, Content-Type, Prefer',
          'access-control-allow-methods': 'GET, POST, OPTIONS',
        }),
        true,
      ),
    ).toEqual([]);
    const cachedForAll = { 'cache-control': 'public, max-age=60', vary: 'Origin, Authorization' };
    expect(broken(exchange({ status: 404, headers: cachedForAll, requestHeaders: {} }))).toEqual([]);
  });

  it.each(BREAKS.map(([rule, ex], index) => [rule, index, ex] as const))('sees %s broken (case %i)', (rule, _i, ex) => {
    expect(broken(ex, true)).toContain(rule);
  });

  it('only ever notes a MAY: a token recovered byte for byte from an invalid construct (RFC 9110 §2.4)', () => {
    for (const authorization of ['Bearer\tfree-test-key', 'Bearer: free-test-key', 'Bearer\u00a0free-test-key']) {
      const found = ruleBreaks(exchange({ requestHeaders: { Authorization: authorization } }), true);
      expect([authorization, found.map(({ rule, severity }) => `${rule} ${severity}`)]).toEqual([
        authorization,
        ['credentials_read_strictly warning'],
      ]);
    }
  });

  it('warns for a SHOULD unless strict, and fails a MUST either way', () => {
    const noStore = exchange({ headers: { 'cache-control': 'max-age=0' } });
    expect(ruleBreaks(noStore, false)[0]?.severity).toBe('warning');
    expect(ruleBreaks(noStore, true)[0]?.severity).toBe('failure');
    const withoutDate = ruleBreaks(exchange({ headers: { date: '' } }), false).find(
      ({ rule }) => rule === 'date_on_answers',
    );
    expect(withoutDate?.severity).toBe('failure');
  });
});

describe('the grammar the rules read', () => {
  it('reads a bearer credential as RFC 6750 §2.1 writes it, the scheme in any case', () => {
    for (const ok of ['Bearer abc', 'bearer abc', 'BEARER  abc', ' Bearer a-b.c_d~e+f/g== ', 'Bearer abc\t'])
      expect([ok, isBearerCredential(ok)]).toEqual([ok, true]);
    for (const bad of [
      'Bearer',
      'Bearer\tabc',
      'Bearer a b',
      'Bearer "abc"',
      'Bearer abc,',
      'Bearer a=b=c',
      'Basic abc',
      'Bearer token=abc',
    ])
      expect([bad, isBearerCredential(bad)]).toEqual([bad, false]);
  });

  it('tells a token recoverable byte for byte from one that is not the one sent', () => {
    for (const ok of ['Bearer\tabc', 'Bearer: abc', 'bearer \t abc', 'Bearer\u00a0abc'])
      expect([ok, recoversBearerToken(ok)]).toEqual([ok, true]);
    for (const bad of [
      'Bearer abc\u00a0',
      'Bearer abc,',
      'Bearer token=abc',
      'Bearer "abc"',
      'Bearer a b',
      'Basic abc',
    ])
      expect([bad, recoversBearerToken(bad)]).toEqual([bad, false]);
  });

  it('reads only the first of several challenges', () => {
    expect(firstChallenge('Bearer realm="a, b", error="invalid_token", Basic realm="x"')).toEqual({
      scheme: 'Bearer',
      params: [
        { name: 'realm', value: 'a, b', quoted: true },
        { name: 'error', value: 'invalid_token', quoted: true },
      ],
    });
  });

  it('reads a challenge with quoted and token parameters', () => {
    expect(firstChallenge('Bearer realm="a \\"b\\"", error=invalid_token')).toEqual({
      scheme: 'Bearer',
      params: [
        { name: 'realm', value: 'a "b"', quoted: true },
        { name: 'error', value: 'invalid_token', quoted: false },
      ],
    });
  });

  it('finds repeated member names at any depth, escapes decoded', () => {
    expect(duplicateMemberNames('{"a":{"b":1,"\\u0062":2},"c":[{"d":1,"d":2}]}')).toEqual(['$.a.b', '$.c[0].d']);
    expect(duplicateMemberNames('{"a":"}\\"","b":[]}')).toEqual([]);
  });
});
