import type { RecordStore } from './record-store.js';
import type { Category, NewCategory, Order, Pet } from './seed.js';

/**
 * The record read or write an operation needs once its request is admitted. An operation names it
 * before the store is asked (the body already validated), so a shared store can take it in the same
 * step as admission: one Redis round trip for the whole request.
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

/** Takes a step through the record store's own methods (the memory store, or any request a fault rule applies to). */
export function takeStep<S extends RecordStep>(records: RecordStore, step: S): Promise<StepResult<S>>;
export function takeStep(records: RecordStore, step: RecordStep): Promise<StepResults[keyof StepResults]> {
  switch (step.kind) {
    case 'listCategories':
      return records.listCategories();
    case 'createCategory':
      return records.createCategory(step.category);
    case 'findPet':
      return records.findPet(step.id);
    case 'listOrders':
      return records.listOrders();
  }
}
