import type { Exchange } from '../core/exchange.js';
import type { Check, CheckContext } from './check.js';
import { expectConforms, expectStatus, expectThat } from './expectations.js';

interface Category {
  id: number;
  name: string;
  description?: string;
}

async function createCategory(
  send: CheckContext['send'],
  body: Record<string, unknown>,
): Promise<{ exchange: Exchange; category: Category }> {
  const exchange = await send({ method: 'POST', path: '/categories', json: body });
  expectStatus(exchange, [201], `creating ${JSON.stringify(body)}`);
  expectConforms('createCategory', exchange, `creating ${JSON.stringify(body)}`);
  return { exchange, category: exchange.json as Category };
}

async function listCategories(send: CheckContext['send']): Promise<{ exchange: Exchange; categories: Category[] }> {
  const exchange = await send({ method: 'GET', path: '/categories' });
  expectStatus(exchange, [200], 'listing categories');
  expectConforms('listCategories', exchange, 'listing categories');
  return { exchange, categories: exchange.json as Category[] };
}

/** Ids are unique: new ones differ from each other and from every id already listed. */
export const categoryIdsUnique: Check = {
  name: 'category_ids_unique',
  verifies: 'each created category gets an id no other category has, and the list holds no duplicate id',
  needs: ['writes', 'stateful'],
  async run({ send }) {
    const before = await listCategories(send);
    const creations = [];
    for (const name of ['contract-unique-1', 'contract-unique-2', 'contract-unique-2'])
      creations.push(await createCategory(send, { name }));
    const created = creations.map(({ category }) => category);
    const existing = new Set(before.categories.map((category) => category.id));
    const reused = created.filter((category) => existing.has(category.id));
    const createdIds = created.map((category) => category.id);
    expectThat(
      reused.length === 0 && new Set(createdIds).size === createdIds.length,
      'Created ids are not unique',
      [`Received: new ids ${createdIds.join(', ')} / Expected: distinct, and none of ${[...existing].join(', ')}`],
      creations[creations.length - 1]!.exchange,
    );
    const after = await listCategories(send);
    const ids = after.categories.map((category) => category.id);
    const duplicates = ids.filter((id, index) => ids.indexOf(id) !== index);
    expectThat(
      duplicates.length === 0,
      'The list holds duplicate ids',
      [`Received: duplicated ids ${[...new Set(duplicates)].join(', ')} / Expected: none`],
      after.exchange,
    );
  },
};
