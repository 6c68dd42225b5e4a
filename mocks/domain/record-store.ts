import type { Category, NewCategory, Order, Pet } from './seed.js';

/** Categories, pets and orders, and the category id sequence. */
export interface RecordStore {
  /**
   * Stores a `NewCategory` under the next id. The operation has validated it against the spec: stores
   * do not check it again (a record is validated once per request).
   */
  createCategory(newCategory: NewCategory): Promise<Category>;
  /** Every category, ascending id. */
  listCategories(): Promise<readonly Category[]>;
  findPet(id: number): Promise<Pet | undefined>;
  /** Every order, ascending id. */
  listOrders(): Promise<Order[]>;
}
