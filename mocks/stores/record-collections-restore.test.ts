import { describe, expect, it } from '@jest/globals';
import { defineExtension, type Extension } from '@msw/data/extensions';
import { specDocument } from '../../spec/spec-artifacts.js';
import { SchemaRegistry } from '../../spec/schema-registry.js';
import { DEFAULT_SEED } from '../domain/seed.js';
import { RecordCollections } from './record-collections.js';

const schemas = new SchemaRegistry(specDocument());

/**
 * Stands in for `persist()` after a reload, which Node cannot run (it needs window and localStorage):
 * it hydrates the first collection it extends (categories) from its constructor, without a promise
 * to await, exactly as `persist()` does.
 */
function restoringCategories(records: Array<{ id: number; name: string }>): Extension {
  let extended = 0;
  return defineExtension({
    name: 'restoring-categories',
    extend(collection) {
      if (extended++ > 0) return;
      void Promise.all(records.map((record) => collection.create(record)));
    },
  });
}

describe('RecordCollections.restoreOrLoad', () => {
  it('keeps restored categories instead of the seed, seeds the empty collections, and continues the ids', async () => {
    const store = new RecordCollections(schemas, [
      restoringCategories([
        { id: 1, name: 'dog' },
        { id: 7, name: 'ferret' },
      ]),
    ]);
    await store.restoreOrLoad(DEFAULT_SEED);
    expect(store.listCategories()).toEqual([
      { id: 1, name: 'dog' },
      { id: 7, name: 'ferret' },
    ]);
    expect(store.listOrders()).toEqual(DEFAULT_SEED.orders);
    expect((await store.createCategory({ name: 'parrot' })).id).toBe(8);
  });

  it('seeds everything when nothing was restored', async () => {
    const store = new RecordCollections(schemas, [restoringCategories([])]);
    await store.restoreOrLoad(DEFAULT_SEED);
    expect(store.listCategories()).toEqual(DEFAULT_SEED.categories);
    expect((await store.createCategory({ name: 'parrot' })).id).toBe(4);
  });

  it("never hands out an id below the seed's highest, even when fewer records were restored", async () => {
    const store = new RecordCollections(schemas, [restoringCategories([{ id: 2, name: 'cat' }])]);
    await store.restoreOrLoad(DEFAULT_SEED);
    expect((await store.createCategory({ name: 'parrot' })).id).toBe(4);
  });
});
