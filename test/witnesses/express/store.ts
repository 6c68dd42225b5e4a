/** In-memory state of one started service; shapes follow the spec's component schemas. */

export interface Category {
  id: number;
  name: string;
  description?: string;
}

export interface NewCategory {
  name: string;
  description?: string;
}

export interface Tag {
  id: number;
  name: string;
}

export interface Pet {
  id: number;
  name: string;
  category?: Category;
  photoUrls?: string[];
  tags?: Tag[];
  status?: 'available' | 'pending' | 'sold';
}

export interface Order {
  id: number;
  petId: number;
  quantity: number;
  shipDate: string;
  status: 'placed' | 'approved' | 'delivered';
  complete: boolean;
}

export class Store {
  private readonly categories: Category[];
  private readonly pets = new Map<string, Pet>();
  private readonly orders: Order[];
  private nextCategoryId: number;

  constructor() {
    // The seeded categories of the spec's `listCategories` example.
    const dog: Category = { id: 1, name: 'dog', description: 'Dogs of every breed' };
    const cat: Category = { id: 2, name: 'cat', description: 'Cats of every breed' };
    const rabbit: Category = { id: 3, name: 'rabbit', description: 'Rabbits and hares' };
    this.categories = [dog, cat, rabbit];
    this.nextCategoryId = 4;

    const pets: Pet[] = [
      {
        id: 1,
        name: 'Rex',
        category: { ...dog },
        photoUrls: ['https://images.petstore.example.com/pets/1.jpg'],
        tags: [{ id: 1, name: 'friendly' }],
        status: 'available',
      },
      {
        id: 2,
        name: 'Misty',
        category: { ...cat },
        photoUrls: ['https://images.petstore.example.com/pets/2.jpg'],
        tags: [{ id: 2, name: 'calm' }],
        status: 'pending',
      },
      { id: 3, name: 'Clover', category: { ...rabbit }, photoUrls: [], tags: [], status: 'sold' },
    ];
    for (const pet of pets) this.pets.set(String(pet.id), pet);

    // The orders of the spec's `listOrders` example.
    this.orders = [
      {
        id: 1,
        petId: 1,
        quantity: 1,
        shipDate: '2026-11-20T10:00:00Z',
        status: 'delivered',
        complete: true,
      },
      {
        id: 2,
        petId: 2,
        quantity: 2,
        shipDate: '2026-11-25T09:30:00Z',
        status: 'placed',
        complete: false,
      },
    ];
  }

  /** Every category, in ascending id order (`x-order-by: id`, `x-paginated: false`). */
  listCategories(): Category[] {
    return [...this.categories].sort((a, b) => a.id - b.id);
  }

  /** Stores the category exactly as given: "an omitted `description` stays omitted". */
  addCategory(input: NewCategory): Category {
    const category: Category = { id: this.nextCategoryId, name: input.name };
    if (input.description !== undefined) category.description = input.description;
    this.nextCategoryId += 1;
    this.categories.push(category);
    return category;
  }

  /** `id` is the canonical decimal form of a positive integer. */
  findPet(id: string): Pet | undefined {
    return this.pets.get(id);
  }

  /** Every order, in ascending id order. */
  listOrders(): Order[] {
    return [...this.orders].sort((a, b) => a.id - b.id);
  }
}
