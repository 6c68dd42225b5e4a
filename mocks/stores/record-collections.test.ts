import { describe, expect, it, jest } from '@jest/globals';
import { defineExtension } from '@msw/data/extensions';
import { specDocument } from '../../spec/spec-artifacts.js';
import { SchemaRegistry } from '../../spec/schema-registry.js';
import { ConfigError } from '../domain/config-error.js';
import { DEFAULT_SEED, EMPTY_SEED, seedFromConfig } from '../domain/seed.js';
import type { SchemaValidators } from '../../spec/schema-registry.js';
import { RecordCollections } from './record-collections.js';

const schemas = new SchemaRegistry(specDocument());

describe('RecordCollections', () => {
  it('assigns increasing ids after the seed, unique under parallel creates, never reused after reset', async () => {
    const store = new RecordCollections(schemas);
    await store.load(DEFAULT_SEED);
    const created = await Promise.all(Array.from({ length: 50 }, (_, i) => store.createCategory({ name: `c${i}` })));
    expect(created.map((c) => c.id)).toEqual(Array.from({ length: 50 }, (_, i) => i + 4));
    expect(store.listCategories()).toHaveLength(53);
    await store.load(EMPTY_SEED);
    expect((await store.createCategory({ name: 'first' })).id).toBe(1);
  });

  it('lets a reset remove a create that was still in flight, so no stale record or id survives it', async () => {
    const store = new RecordCollections(schemas);
    await store.load(DEFAULT_SEED);
    const inFlight = store.createCategory({ name: 'racing' });
    await store.load(DEFAULT_SEED);
    expect((await inFlight).id).toBe(4);
    expect(store.listCategories().map((c) => c.name)).toEqual(['dog', 'cat', 'rabbit']);
    expect((await store.createCategory({ name: 'after' })).id).toBe(4);
    expect(store.listCategories().map((c) => c.id)).toEqual([1, 2, 3, 4]);
  });

  it('keeps an omitted description omitted and returns plain records', async () => {
    const store = new RecordCollections(schemas);
    await store.load(EMPTY_SEED);
    const created = await store.createCategory({ name: 'parrot' });
    expect(created).toEqual({ id: 1, name: 'parrot' });
    expect(Object.getOwnPropertySymbols(store.listCategories()[0]!)).toEqual([]);
  });

  it('refuses seeded records the spec forbids, through the collection schema', async () => {
    const store = new RecordCollections(schemas);
    // @msw/data logs the schema issues before rejecting; keep the output clean but prove it logged them.
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(store.load({ ...EMPTY_SEED, categories: [{ id: 1, name: '' }] })).rejects.toThrow();
    expect(JSON.stringify(logged.mock.calls)).toContain('name must NOT have fewer than 1 characters');
    logged.mockRestore();
  });

  it('does not check a created category a second time: the operation validated its body already', async () => {
    const checked: unknown[] = [];
    const counting: SchemaValidators = {
      validator(name) {
        const validate = schemas.validator(name);
        return Object.assign((value: unknown) => {
          checked.push(value);
          return validate(value);
        }, validate);
      },
    };
    const store = new RecordCollections(counting);
    await store.load(DEFAULT_SEED);
    const seeded = checked.length;
    expect(seeded).toBe(DEFAULT_SEED.categories.length + DEFAULT_SEED.pets.length + DEFAULT_SEED.orders.length);
    await store.createCategory({ name: 'parrot', description: 'Talks back' });
    await store.createCategory({ name: 'finch' });
    expect(checked).toHaveLength(seeded);
    expect(store.listCategories().slice(-2)).toEqual([
      { id: 4, name: 'parrot', description: 'Talks back' },
      { id: 5, name: 'finch' },
    ]);
  });

  it('keys created records by their id, not by a random UUID (which alone weighed some 490 bytes per record)', async () => {
    const collections: Array<{ all(): object[] }> = [];
    const watching = defineExtension({ name: 'watching', extend: (collection) => void collections.push(collection) });
    const store = new RecordCollections(schemas, [watching]);
    await store.load(EMPTY_SEED);
    for (const name of ['first', 'second', 'third']) await store.createCategory({ name });
    const keys = collections[0]!.all().map((record) => {
      const symbol = Object.getOwnPropertySymbols(record).find((each) => each.description === 'kPrimaryKey');
      return (record as Record<symbol, unknown>)[symbol!];
    });
    // The process's first create shows the library's key symbol (a UUID, unless another store in this
    // process showed it already); every later record, in any store, carries its id as key.
    expect(keys[0]).toMatch(/^(1|[0-9a-f]{8}-[0-9a-f]{4}-.*)$/);
    expect(keys.slice(1)).toEqual(['2', '3']);
  });
});

describe('seedFromConfig', () => {
  it('accepts sections that match the spec, omitted sections empty', () => {
    expect(seedFromConfig({ categories: [{ id: 9, name: 'ferret' }] }, 'seed.json')).toEqual({
      categories: [{ id: 9, name: 'ferret' }],
      pets: [],
      orders: [],
    });
  });

  it.each([
    [[], 'seed.json: must be a JSON object'],
    [{ animals: [] }, 'seed.json: animals: is not a seed section'],
    [{ categories: {} }, 'seed.json: categories: must be an array'],
    [
      { categories: [{ id: 1, name: '' }] },
      'seed.json: categories[0]: Category: name must NOT have fewer than 1 characters',
    ],
    [
      {
        categories: [
          { id: 1, name: 'a' },
          { id: 1, name: 'b' },
        ],
      },
      'seed.json: categories[1].id: duplicate id 1',
    ],
    [{ orders: [{ id: 1 }] }, 'seed.json: orders[0]: Order: petId is required'],
  ])('refuses %j naming the entry', (config, message) => {
    expect(() => seedFromConfig(config, 'seed.json')).toThrow(ConfigError);
    expect(() => seedFromConfig(config, 'seed.json')).toThrow(message);
  });
});
