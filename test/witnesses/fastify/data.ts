/** The spec's schemas, as stored in memory. */
export interface Category {
  readonly id: number;
  readonly name: string;
  readonly description?: string;
}

export interface NewCategory {
  readonly name: string;
  readonly description?: string;
}

export interface Tag {
  readonly id: number;
  readonly name: string;
}

export interface Pet {
  readonly id: number;
  readonly name: string;
  readonly category?: Category;
  readonly photoUrls?: readonly string[];
  readonly tags?: readonly Tag[];
  readonly status?: 'available' | 'pending' | 'sold';
}

export interface Order {
  readonly id: number;
  readonly petId: number;
  readonly quantity: number;
  readonly shipDate: string;
  readonly status: 'placed' | 'approved' | 'delivered';
  readonly complete: boolean;
}

const DOG: Category = { id: 1, name: 'dog', description: 'Dogs of every breed' };
const CAT: Category = { id: 2, name: 'cat', description: 'Cats of every breed' };
const RABBIT: Category = { id: 3, name: 'rabbit', description: 'Rabbits and hares' };

const SEED_PETS: readonly Pet[] = [
  {
    id: 1,
    name: 'Rex',
    category: DOG,
    photoUrls: ['https://images.petstore.example.com/pets/1.jpg'],
    tags: [{ id: 1, name: 'friendly' }],
    status: 'available',
  },
  {
    id: 2,
    name: 'Misty',
    category: CAT,
    photoUrls: ['https://images.petstore.example.com/pets/2.jpg'],
    tags: [{ id: 2, name: 'indoor' }],
    status: 'pending',
  },
  { id: 3, name: 'Clover', category: RABBIT, photoUrls: [], tags: [], status: 'sold' },
  { id: 4, name: 'Biscuit' },
];

const SEED_ORDERS: readonly Order[] = [
  { id: 1, petId: 1, quantity: 1, shipDate: '2026-11-20T10:00:00Z', status: 'delivered', complete: true },
  { id: 2, petId: 2, quantity: 2, shipDate: '2026-11-25T09:30:00Z', status: 'placed', complete: false },
  { id: 3, petId: 3, quantity: 1, shipDate: '2026-12-01T15:00:00Z', status: 'approved', complete: false },
];

/** The state of one started service: categories, pets and orders, in memory. */
export class PetStore {
  readonly #categories: Category[] = [DOG, CAT, RABBIT];
  readonly #pets = new Map<string, Pet>(SEED_PETS.map((pet) => [String(pet.id), pet]));
  readonly #orders: readonly Order[] = SEED_ORDERS;
  #nextCategoryId = 4;

  /** Every category, in ascending id order (ids are assigned in increasing order). */
  listCategories(): readonly Category[] {
    return this.#categories;
  }

  /** Stores the category exactly as given: an omitted description stays omitted. */
  createCategory(input: NewCategory): Category {
    const category: Category =
      input.description === undefined
        ? { id: this.#nextCategoryId, name: input.name }
        : { id: this.#nextCategoryId, name: input.name, description: input.description };
    this.#nextCategoryId += 1;
    this.#categories.push(category);
    return category;
  }

  /** `id` is the canonical decimal form of a positive integer. */
  findPet(id: string): Pet | undefined {
    return this.#pets.get(id);
  }

  /** Every order, in ascending id order. */
  listOrders(): readonly Order[] {
    return this.#orders;
  }
}
