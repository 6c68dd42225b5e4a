import type { Category } from './petstore-client.js';

/** The page's elements, found once (the markup is in demo/public/index.html). */
export interface DemoView {
  app: HTMLElement;
  backend: HTMLElement;
  categories: HTMLUListElement;
  newCategory: HTMLInputElement;
  quota: HTMLOutputElement;
  error: HTMLElement;
  reset: HTMLButtonElement;
}

/** Finds the page's elements; throws naming the missing one, so a markup change fails loudly. */
export function findDemoView(root: Document): DemoView {
  const find = <T extends HTMLElement>(id: string): T => {
    const element = root.getElementById(id);
    if (!element) throw new Error(`[demo] index.html has no #${id}`);
    return element as T;
  };
  return {
    app: find('app'),
    backend: find('backend'),
    categories: find('categories'),
    newCategory: find('new-category'),
    quota: find('quota'),
    error: find('error'),
    reset: find('reset'),
  };
}

/** Shows the list by name (the description as a tooltip). */
export function renderCategories(view: DemoView, categories: readonly Category[]): void {
  view.categories.replaceChildren(
    ...categories.map((category) => {
      const item = document.createElement('li');
      item.textContent = category.name;
      if (category.description) item.title = category.description;
      return item;
    }),
  );
}

/** Adds a just-created category at the end, as the list is in ascending id order. */
export function appendCategory(view: DemoView, category: Category): void {
  const item = document.createElement('li');
  item.textContent = category.name;
  view.categories.append(item);
}

/** Shows the quota a response reported; a response without the header leaves the last value. */
export function renderQuota(view: DemoView, remaining: number | undefined): void {
  if (remaining !== undefined && Number.isFinite(remaining)) view.quota.value = String(remaining);
}

/** Shows the `message` of a failed call (empty string clears it). */
export function renderError(view: DemoView, message: string): void {
  view.error.textContent = message;
}
