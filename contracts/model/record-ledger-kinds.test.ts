import { afterAll, describe, expect, it } from '@jest/globals';
import type { Exchange } from '../core/exchange.js';
import { grownSuite } from '../../test/support/grown-spec.js';

// The record ledger on a spec grown by a read, a replace and a delete of one category: what each kind of
// write promises every later list and read, judged from the exchanges alone.
const grown = await grownSuite(['read', 'replace', 'delete']);
const { PromiseModel } = await import('./promise-model.js');

const BASE = 'http://service.test/v1';
const RATE_LIMIT = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '1800000060' };

function exchange(method: string, path: string, status: number, json?: unknown, body?: unknown): Exchange {
  return {
    request: {
      method,
      url: `${BASE}${path}`,
      headers: { Authorization: 'Bearer k', ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    },
    status,
    headers: { ...RATE_LIMIT, ...(json !== undefined && { 'content-type': 'application/json' }) },
    text: json === undefined ? '' : JSON.stringify(json),
    json,
  };
}

/** The titles of what the exchanges break, fed one at a time, each answered before the next is sent. */
function brokenBy(exchanges: Exchange[]): string[] {
  const model = new PromiseModel({ baseUrl: BASE, capabilities: ['stateful'] });
  return exchanges.flatMap((sent) =>
    model
      .answered(model.sending(), sent, 1_800_000_005)
      .filter(({ promise }) => promise === 'stored_as_sent' || promise === 'ids_unique')
      .map(({ promise, title }) => `${promise}: ${title}`),
  );
}

const dog = { id: 1, name: 'dog' };
const hamster = { id: 4, name: 'hamster' };
const created = exchange('POST', '/categories', 201, hamster, { name: 'hamster' });
const deleted = exchange('DELETE', '/categories/4', 204);

describe('the record ledger, by the kind of each operation', () => {
  afterAll(() => grown.remove());

  it('holds every later list to a deletion: the deleted record is gone', () => {
    expect(brokenBy([created, deleted, exchange('GET', '/categories', 200, [dog])])).toEqual([]);
    expect(brokenBy([created, deleted, exchange('GET', '/categories', 200, [dog, hamster])])).toEqual([
      'stored_as_sent: A deleted record is still listed',
    ]);
    // A seeded record the run did not create, deleted: the same.
    expect(brokenBy([exchange('DELETE', '/categories/1', 204), exchange('GET', '/categories', 200, [dog])])).toEqual([
      'stored_as_sent: A deleted record is still listed',
    ]);
  });

  it('holds every later read to a deletion, and lets a failed delete change nothing', () => {
    expect(brokenBy([created, deleted, exchange('GET', '/categories/4', 404, { code: 'not_found' })])).toEqual([]);
    expect(brokenBy([created, deleted, exchange('GET', '/categories/4', 200, hamster)])).toEqual([
      'stored_as_sent: A deleted record is still read',
    ]);
    const refused = exchange('DELETE', '/categories/4', 404, { code: 'not_found', message: 'm', status: 404 });
    expect(brokenBy([created, refused, exchange('GET', '/categories', 200, [dog])])).toEqual([
      'stored_as_sent: A record the run wrote is missing from the list',
    ]);
  });

  it('lets an id freed by a deletion be given again: unique among the records there are', () => {
    const listed = exchange('GET', '/categories', 200, [dog, hamster]);
    const createdAgain = exchange('POST', '/categories', 201, { id: 4, name: 'gerbil' }, { name: 'gerbil' });
    expect(brokenBy([created, listed, deleted, createdAgain])).toEqual([]);
    expect(brokenBy([created, listed, createdAgain])).toEqual([
      'ids_unique: A created record was answered with an id another record has',
    ]);
  });

  it('holds a replace to what was sent, and every later list to the replaced record', () => {
    const replaced = exchange('PUT', '/categories/4', 200, { id: 4, name: 'gerbil' }, { name: 'gerbil' });
    expect(
      brokenBy([created, replaced, exchange('GET', '/categories', 200, [dog, { id: 4, name: 'gerbil' }])]),
    ).toEqual([]);
    expect(brokenBy([created, replaced, exchange('GET', '/categories', 200, [dog, hamster])])).toEqual([
      'stored_as_sent: A record is listed otherwise than its last write answered it',
    ]);
    expect(brokenBy([exchange('PUT', '/categories/4', 200, hamster, { name: 'gerbil' })])).toEqual([
      'stored_as_sent: The replaced record is not what was sent',
    ]);
  });
});
