import { listStaleness, quotaStaleness, type PageState } from './page-state.js';

/** The page's elements, found once (the markup is in demo/public/index.html). */
export interface DemoView {
  app: HTMLElement;
  backend: HTMLElement;
  categories: HTMLUListElement;
  /** Says when the list is empty, could not be loaded, or is out of date. */
  listStatus: HTMLElement;
  newCategory: HTMLInputElement;
  quota: HTMLOutputElement;
  /** Beside the count: Retry-After of a 429, or that the count is only the last known one. */
  quotaNote: HTMLElement;
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
    listStatus: find('list-status'),
    newCategory: find('new-category'),
    quota: find('quota'),
    quotaNote: find('quota-note'),
    error: find('error'),
    banner: find('banner'),
    loading: find('loading'),
    reset: find('reset'),
    faults: find('faults'),
  };
}

/** Draws every part of the page from `state`: nothing keeps a value from an older answer unmarked. */
export function renderPage(view: DemoView, state: PageState): void {
  renderList(view, state);
  renderQuota(view, state);
  renderFailure(view, state.failure);
  view.loading.hidden = state.listsInFlight === 0;
  view.app.dataset.loading = String(state.listsInFlight > 0);
}

/** The list by name (the description as a tooltip), marked out of date when the last reload failed. */
function renderList(view: DemoView, state: PageState): void {
  const categories = state.categories ?? [];
  view.categories.replaceChildren(
    ...categories.map((category) => {
      const item = document.createElement('li');
      item.textContent = category.name;
      if (category.description) item.title = category.description;
      return item;
    }),
  );
  const stale = listStaleness(state);
  view.categories.dataset.stale = String(stale !== undefined);
  view.listStatus.textContent = listStatusText(state.categories, stale);
}

/** Empty, not loaded, or out of date (with the status and code of the reload that failed); '' when current. */
function listStatusText(categories: PageState['categories'], stale: ReturnType<typeof listStaleness>): string {
  if (!stale) return categories?.length === 0 ? 'No categories yet.' : '';
  const how = stale.code === 'network_error' ? 'got no answer' : `failed (${stale.status} ${stale.code})`;
  return categories
    ? `Out of date: reloading the list ${how}; this is the list as last received.`
    : `Not loaded: loading the list ${how}.`;
}

/** The count the last answered call reported; marked as the last known one when the call sent last told nothing. */
function renderQuota(view: DemoView, state: PageState): void {
  const { quota } = state;
  const stale = quotaStaleness(state);
  view.quota.value = quota ? String(quota.left) : '–';
  view.quota.dataset.stale = String(stale !== undefined);
  view.quotaNote.textContent = stale
    ? `(last known: the last call ${stale === 'no-answer' ? 'got no answer' : 'was answered without X-RateLimit-Remaining'})`
    : quota?.retryAfter !== undefined && state.failure?.code !== 'temporarily_banned' // the ban's banner says it
      ? `Retry-After: ${quota.retryAfter} s`
      : quota?.withoutKey
        ? '(for calls without a valid key: the key was refused)'
        : '';
}

/**
 * The failure of the call sent last, said once: offline (no answer at all) and banned are states of the
 * whole page and get the banner; any other error is the call's own, its `message` under the form.
 */
function renderFailure(view: DemoView, failure: PageState['failure']): void {
  view.banner.textContent =
    failure?.code === 'network_error'
      ? 'Offline: the Pet Store could not be reached. Check your connection, then try again.'
      : failure?.code === 'temporarily_banned'
        ? `This API key is banned for calling on after its quota ran out${failure.retryAfter ? `; retry in ${failure.retryAfter} s` : ''}.`
        : '';
  view.error.textContent = failure && !view.banner.textContent ? failure.message : '';
}
