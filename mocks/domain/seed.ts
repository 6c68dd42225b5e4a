import type { components } from '../../spec/openapi.js';
import { describeSchemaErrors } from '../../spec/schema-errors.js';
import { specValidators } from '../../spec/spec-artifacts.js';
import { ConfigError } from './config-error.js';

export type Category = components['schemas']['Category'];
export type NewCategory = components['schemas']['NewCategory'];
export type Pet = components['schemas']['Pet'];
export type Order = components['schemas']['Order'];

/** The records the fake starts with and returns to on reset. */
export interface SeedData {
  categories: Category[];
  pets: Pet[];
  orders: Order[];
}

const dog: Category = { id: 1, name: 'dog', description: 'Dogs of every breed' };
const cat: Category = { id: 2, name: 'cat', description: 'Cats of every breed' };
const rabbit: Category = { id: 3, name: 'rabbit', description: 'Rabbits and hares' };

/** dog, cat, rabbit (ids 1-3), three pets and two orders. */
export const DEFAULT_SEED: SeedData = {
  categories: [dog, cat, rabbit],
  pets: [
    {
      id: 1,
      name: 'Rex',
      category: dog,
      photoUrls: ['https://images.petstore.example.com/pets/1.jpg'],
      tags: [{ id: 1, name: 'friendly' }],
      status: 'available',
    },
    { id: 2, name: 'Misty', category: cat, photoUrls: [], tags: [], status: 'pending' },
    { id: 3, name: 'Thumper', category: rabbit, status: 'sold' },
  ],
  orders: [
    { id: 1, petId: 3, quantity: 1, shipDate: '2026-11-20T10:00:00Z', status: 'delivered', complete: true },
    { id: 2, petId: 2, quantity: 1, shipDate: '2026-11-25T09:30:00Z', status: 'placed', complete: false },
  ],
};

/** No records at all (`--empty`). */
export const EMPTY_SEED: SeedData = { categories: [], pets: [], orders: [] };

const SECTIONS = [
  ['categories', 'Category'],
  ['pets', 'Pet'],
  ['orders', 'Order'],
] as const;

/**
 * Checks a `--seed` document `{ categories?, pets?, orders? }` against the spec's schemas;
 * throws a {@link ConfigError} naming the entry. Omitted sections are empty.
 * @example seedFromConfig(JSON.parse(text), 'seed.json')
 */
export function seedFromConfig(config: unknown, source: string): SeedData {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new ConfigError(source, '', 'must be a JSON object { "categories": [...], "pets": [...], "orders": [...] }');
  }
  const unknown = Object.keys(config).filter((key) => !SECTIONS.some(([section]) => section === key));
  if (unknown.length > 0)
    throw new ConfigError(source, unknown[0]!, 'is not a seed section (categories, pets, orders)');
  const seed: SeedData = { categories: [], pets: [], orders: [] };
  for (const [section, schemaName] of SECTIONS) {
    const entries = (config as Record<string, unknown>)[section] ?? [];
    if (!Array.isArray(entries)) throw new ConfigError(source, section, 'must be an array');
    const validate = specValidators().validator(schemaName);
    const ids = new Set<number>();
    entries.forEach((entry: unknown, index) => {
      const at = `${section}[${index}]`;
      if (!validate(entry)) throw new ConfigError(source, at, describeSchemaErrors(validate.errors, schemaName));
      const { id } = entry as { id: number };
      if (ids.has(id)) throw new ConfigError(source, `${at}.id`, `duplicate id ${id}`);
      ids.add(id);
    });
    (seed[section] as unknown[]) = entries;
  }
  return seed;
}
