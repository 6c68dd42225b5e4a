import type { Category } from './petstore-client.js';

/** The page's elements, found once (the markup is in demo/public/index.html). */
export interface DemoView {
  app: HTMLElement;
  backend: HTMLElement;
  categories: HTMLUListElement;
  newCategory: HTMLInputElement;
  quota: HTMLOutputElement;
  error: HTMLElement;
  /** Offline and banned: states of the whole page rather than of one call. */
  banner: HTMLElement;
  loading: HTMLElement;
  reset: HTMLButtonElement;
  /** The fault switches; shown only with the in-page fake. */
  faults: HTMLFieldSetElement;
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
    banner: find('banner'),
    loading: find('loading'),
    reset: find('reset'),
    faults: find('faults'),
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

/** Shows or hides the loading line while a list is on its way (`data-loading` for tests). */
export function renderLoading(view: DemoView, loading: boolean): void {
  view.loading.hidden = !loading;
  view.app.dataset.loading = String(loading);
}

/**
 * The page-wide state a failed call puts the page in: offline (no answer at all) and banned get the
 * banner; any other error is the call's own and goes under the form. Success clears both.
 */
export function renderOutcome(
  view: DemoView,
  outcome: { ok: true } | { ok: false; error: { code: string; message: string }; retryAfter?: number },
): void {
  if (outcome.ok) {
    view.banner.textContent = '';
    renderError(view, '');
    return;
  }
  const { code, message } = outcome.error;
  if (code === 'network_error') {
    view.banner.textContent = 'Offline: the Pet Store could not be reached. Check your connection, then try again.';
    renderError(view, '');
  } else if (code === 'temporarily_banned') {
    view.banner.textContent = `This API key is banned for calling on after its quota ran out${outcome.retryAfter ? `; retry in ${outcome.retryAfter} s` : ''}.`;
    renderError(view, '');
  } else {
    view.banner.textContent = '';
    renderError(view, message);
  }
}
