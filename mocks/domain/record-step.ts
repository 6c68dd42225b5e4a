import type { Category, NewCategory, Order, Pet } from './seed.js';

/**
 * The record read or write an operation needs once its request is admitted. An operation names it
 * before the store is asked (the body already validated), so a shared store can take it in the same
 * step as admission: one Redis round trip for the whole request. Each store takes a step in one place
 * (`MemoryStore`'s collections, the Redis store's ADMIT script).
 */
export type RecordStep =
  | { kind: 'listCategories' }
  | { kind: 'createCategory'; category: NewCategory }
  | { kind: 'findPet'; id: number }
  | { kind: 'listOrders' };

/** What each kind of step yields. */
export interface StepResults {
  listCategories: readonly Category[];
  createCategory: Category;
  findPet: Pet | undefined;
  listOrders: Order[];
}

/** What one step yields. */
export type StepResult<S extends RecordStep> = StepResults[S['kind']];
