import { Collection } from '@msw/data';
import type { Extension } from '@msw/data/extensions';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ValidateFunction } from 'ajv';
import { describeSchemaErrors } from '../../spec/schema-errors.js';
import type { SchemaValidators } from '../../spec/schema-registry.js';
import type { Category, NewCategory, Order, Pet, SeedData } from '../domain/seed.js';

/**
 * An ajv validator of the spec as the Standard Schema `@msw/data` checks every record with, so the
 * collections refuse what the spec forbids: seeded and restored records. One exemption: a record
 * {@link RecordCollections} builds itself from a body the operation has already validated is not
 * checked a second time (`trustingOne`), as each POST would otherwise pay for the same schema twice.
 */
class SpecSchema<T> implements StandardSchemaV1<T, T> {
  #trusted = false;
  readonly '~standard': StandardSchemaV1.Props<T, T>;

  constructor(validate: ValidateFunction, name: string) {
    this['~standard'] = {
      version: 1,
      vendor: 'petstore-openapi',
      validate: (value) => {
        if (this.#trusted) return { value: value as T };
        return validate(value)
          ? { value: value as T }
          : { issues: [{ message: describeSchemaErrors(validate.errors, name) }] };
      },
    };
  }

  /**
   * Starts `create` with validation off for that one record. `@msw/data` 1.1.7 calls `validate` before
   * its first await, so the flag is back off when `create` returns; were it ever called later, it would
   * find the flag off and validate in full: slower, never wrong.
   */
  trustingOne<R>(create: () => R): R {
    this.#trusted = true;
    try {
      return create();
    } finally {
      this.#trusted = false;
    }
  }
}

// @msw/data records carry symbol-keyed internals; answers are built from plain copies.
function plainCategory({ id, name, description }: Category): Category {
  return description === undefined ? { id, name } : { id, name, description };
}

/**
 * The symbol `@msw/data` keys its records by. It is not exported, but `create` takes the key from the
 * initial values when they carry it (its `persist()` extension restores records that way); without one
 * it draws `crypto.randomUUID()`, which Node assembles from about twenty string pieces: some 490 bytes
 * kept per record, more than half of a category's weight in the heap, copied by every scavenge. Undefined
 * until a record shows it (or if a later version drops it): records then get the library's UUIDs.
 */
function primaryKeySymbolOf(record: object): symbol | undefined {
  return Object.getOwnPropertySymbols(record).find((symbol) => symbol.description === 'kPrimaryKey');
}

/**
 * The initial values of a created category, carrying its id as the library's key through their
 * prototype: `create` reads the key with a plain property read and copies only own properties, so a key
 * found there costs no descriptor to save and restore and no property redefined on each record (what an
 * own symbol property did: about a microsecond of each create). The prototype's own prototype is null,
 * so the library still takes the values for a plain object.
 */
class KeyedCategoryValues {
  declare id: number;
  declare name: string;
  declare description?: string;

  constructor({ id, name, description }: Category) {
    this.id = id;
    this.name = name;
    if (description !== undefined) this.description = description;
  }

  /** Whether the library's key symbol is known (from the first record any collection created). */
  static keyed = false;

  /** Defines the key getter from a created record, once: the symbol is the library's, one for all collections. */
  static learnKeyFrom(record: object): void {
    const key = primaryKeySymbolOf(record);
    if (key === undefined || KeyedCategoryValues.keyed) return;
    Object.defineProperty(KeyedCategoryValues.prototype, key, {
      get(this: KeyedCategoryValues) {
        return String(this.id);
      },
    });
    KeyedCategoryValues.keyed = true;
  }
}
Object.setPrototypeOf(KeyedCategoryValues.prototype, null);

/**
 * The fake's records: categories, pets and orders, in `@msw/data` collections validated by the spec.
 * @example const created = await store.createCategory({ name: 'hamster' });
 */
export class RecordCollections {
  readonly #categorySchema: SpecSchema<Category>;
  readonly #petSchema: SpecSchema<Pet>;
  readonly #orderSchema: SpecSchema<Order>;
  readonly #extensions: Extension[];
  #categories!: Collection<SpecSchema<Category>>;
  #pets!: Collection<SpecSchema<Pet>>;
  #orders!: Collection<SpecSchema<Order>>;
  #nextCategoryId = 1;
  /** Bumped by every load, so a create that was in flight across a reset can tell. */
  #generation = 0;
  /** `listCategories()` until the next change: the list is read far more often than it changes. */
  #categoryList: readonly Category[] | undefined;

  /** `extensions` are applied to every collection, e.g. `[persist()]` in a browser. */
  constructor(schemas: SchemaValidators, extensions: Extension[] = []) {
    this.#categorySchema = new SpecSchema<Category>(schemas.validator('Category'), 'Category');
    this.#petSchema = new SpecSchema<Pet>(schemas.validator('Pet'), 'Pet');
    this.#orderSchema = new SpecSchema<Order>(schemas.validator('Order'), 'Order');
    this.#extensions = extensions;
    this.#newCollections();
  }

  #newCollections(): void {
    const extensions = this.#extensions;
    this.#categories = new Collection({ schema: this.#categorySchema, extensions });
    this.#pets = new Collection({ schema: this.#petSchema, extensions });
    this.#orders = new Collection({ schema: this.#orderSchema, extensions });
  }

  /**
   * Empties the collections. `clear()` deletes record by record, each a scan of the collection: minutes
   * for the 100,000 records a load test leaves. Without extensions new collections do it at once; with
   * them (`persist()`) the deletes are what keeps the storage in step, so they are kept.
   */
  #emptied(): void {
    if (this.#extensions.length === 0) return this.#newCollections();
    this.#categories.clear();
    this.#pets.clear();
    this.#orders.clear();
  }

  /** Replaces every record with the seed's; new category ids continue after the seed's highest. */
  async load(seed: SeedData): Promise<void> {
    this.#generation += 1;
    this.#categoryList = undefined;
    this.#emptied();
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

  /**
   * Stores a `NewCategory` the operation has validated (the collection does not check it again) under
   * the next id; an omitted description stays omitted. Answers a copy: the collection keeps its own.
   */
  createCategory(newCategory: NewCategory): Promise<Category> {
    // The id is taken before the collection is asked, so parallel creates can never share one.
    const id = this.#nextCategoryId++;
    const generation = this.#generation;
    const { name, description } = newCategory;
    const category: Category = description === undefined ? { id, name } : { id, name, description };
    // The collection stores a copy it makes of these values, so `category` stays the caller's own.
    const initialValues = KeyedCategoryValues.keyed ? new KeyedCategoryValues(category) : category;
    return this.#categorySchema
      .trustingOne(() => this.#categories.create(initialValues))
      .then((record) => {
        if (!KeyedCategoryValues.keyed) KeyedCategoryValues.learnKeyFrom(record);
        // A reset ran while this record was being stored: the create happened before it, so the reset
        // removes it (it would otherwise survive the reset with an id the new numbering hands out again).
        if (generation !== this.#generation) this.#categories.delete(record);
        this.#categoryList = undefined;
        return category;
      });
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
