import { Collection } from '@msw/data';
import type { Extension } from '@msw/data/extensions';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ValidateFunction } from 'ajv';
import { describeSchemaErrors } from '../../spec/schema-errors.js';
import type { SchemaValidators } from '../../spec/schema-registry.js';
import type { Category, NewCategory, Order, Pet, SeedData } from '../domain/seed.js';

/** Wraps an ajv validator of the spec as a Standard Schema, so `@msw/data` refuses records the spec forbids. */
function standardSchemaOf<T>(validate: ValidateFunction, name: string): StandardSchemaV1<T, T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'petstore-openapi',
      validate: (value) =>
        validate(value)
          ? { value: value as T }
          : { issues: [{ message: describeSchemaErrors(validate.errors, name) }] },
    },
  };
}

// @msw/data records carry symbol-keyed internals; answers are built from plain copies.
function plainCategory({ id, name, description }: Category): Category {
  return description === undefined ? { id, name } : { id, name, description };
}

/**
 * The fake's records: categories, pets and orders, in `@msw/data` collections validated by the spec.
 * @example const created = await store.createCategory({ name: 'hamster' });
 */
export class RecordCollections {
  readonly #categories: Collection<StandardSchemaV1<Category, Category>>;
  readonly #pets: Collection<StandardSchemaV1<Pet, Pet>>;
  readonly #orders: Collection<StandardSchemaV1<Order, Order>>;
  #nextCategoryId = 1;
  /** Bumped by every load, so a create that was in flight across a reset can tell. */
  #generation = 0;
  /** `listCategories()` until the next change: the list is read far more often than it changes. */
  #categoryList: readonly Category[] | undefined;

  /** `extensions` are applied to every collection, e.g. `[persist()]` in a browser. */
  constructor(schemas: SchemaValidators, extensions: Extension[] = []) {
    this.#categories = new Collection({
      schema: standardSchemaOf<Category>(schemas.validator('Category'), 'Category'),
      extensions,
    });
    this.#pets = new Collection({ schema: standardSchemaOf<Pet>(schemas.validator('Pet'), 'Pet'), extensions });
    this.#orders = new Collection({ schema: standardSchemaOf<Order>(schemas.validator('Order'), 'Order'), extensions });
  }

  /** Replaces every record with the seed's; new category ids continue after the seed's highest. */
  async load(seed: SeedData): Promise<void> {
    this.#generation += 1;
    this.#categoryList = undefined;
    this.#categories.clear();
    this.#pets.clear();
    this.#orders.clear();
    this.#nextCategoryId = Math.max(0, ...seed.categories.map((category) => category.id)) + 1;
    await Promise.all([
      ...seed.categories.map((category) => this.#categories.create(structuredClone(category))),
      ...seed.pets.map((pet) => this.#pets.create(structuredClone(pet))),
      ...seed.orders.map((order) => this.#orders.create(structuredClone(order))),
    ]);
    this.#categoryList = undefined;
  }

  /**
   * Keeps the records an extension restored (`persist()` after a page reload) and seeds only the
   * collections that came back empty; new category ids continue after the highest id present.
   */
  async restoreOrLoad(seed: SeedData): Promise<void> {
    // `persist()` hydrates from the collection's constructor and offers nothing to await. Its work is
    // microtasks only (our validators are synchronous), so it has finished by the next macrotask.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await Promise.all([
      ...(this.#categories.count() === 0
        ? seed.categories.map((category) => this.#categories.create(structuredClone(category)))
        : []),
      ...(this.#pets.count() === 0 ? seed.pets.map((pet) => this.#pets.create(structuredClone(pet))) : []),
      ...(this.#orders.count() === 0 ? seed.orders.map((order) => this.#orders.create(structuredClone(order))) : []),
    ]);
    this.#categoryList = undefined;
    const ids = [...seed.categories, ...this.#categories.all()].map((category) => category.id);
    this.#nextCategoryId = Math.max(0, ...ids) + 1;
  }

  /** Stores a validated `NewCategory` under the next id; an omitted description stays omitted. */
  async createCategory(newCategory: NewCategory): Promise<Category> {
    // The id is taken before the first await, so parallel creates can never share one.
    const id = this.#nextCategoryId++;
    const generation = this.#generation;
    const record = await this.#categories.create(plainCategory({ id, ...newCategory }));
    // A reset ran while this record was being stored: the create happened before it, so the reset
    // removes it (it would otherwise survive the reset with an id the new numbering hands out again).
    if (generation !== this.#generation) this.#categories.delete(record);
    this.#categoryList = undefined;
    return plainCategory(record);
  }

  /** Every category, ascending id. Frozen: it is shared by every call until the categories change. */
  listCategories(): readonly Category[] {
    this.#categoryList ??= Object.freeze(
      this.#categories
        .findMany(undefined, { orderBy: { id: 'asc' } })
        .map((record) => Object.freeze(plainCategory(record))),
    );
    return this.#categoryList;
  }

  /** The pet with this id, if any. */
  findPet(id: number): Pet | undefined {
    const pet = this.#pets.findFirst((q) => q.where({ id }));
    return pet && (structuredClone({ ...pet }) as Pet);
  }

  /** Every order, ascending id. */
  listOrders(): Order[] {
    return this.#orders.findMany(undefined, { orderBy: { id: 'asc' } }).map((order) => ({ ...order }));
  }
}
