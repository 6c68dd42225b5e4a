import type { ApiError, ApiResult, Category } from './petstore-client.js';

// What the page shows, as data: every call the page sends is numbered when it leaves, and every answer
// (or the lack of one) goes through `answered`, which decides each part of the page from the calls sent
// last. The page then renders the whole state, so no part keeps a value from an older answer silently.

/** The page's calls. */
export type PageCall = 'list' | 'create';

/** A call's number, in the order the page sent them. */
export type CallNumber = number;

/** Why the counter may be out of date: the call sent last got no answer, or an answer that did not say. */
export type QuotaStaleness = 'no-answer' | 'not-said';

/** A count the service reported, and the call whose answer carried it. */
export interface ShownQuota {
  left: number;
  from: CallNumber;
  /** `Retry-After` (seconds) when the answer was a 429. */
  retryAfter?: number;
  /** The answer was a 401: the service counts calls without a valid key apart from the key's. */
  withoutKey: boolean;
}

export interface PageState {
  /** The number the next call gets. */
  nextCall: CallNumber;
  /** List calls sent and not answered yet: the loading line shows while there is one. */
  listsInFlight: number;
  /** The categories last received; undefined until a list arrived. */
  categories: readonly Category[] | undefined;
  /** The call the list shown comes from (a create counts: it changed the list, so no older list replaces it). */
  listFrom: CallNumber;
  /** The last list call that brought a list. */
  listLoadedBy: CallNumber;
  /** The last list call that failed, and its error; the list is out of date while it was sent after `listLoadedBy`. */
  listFailedBy: CallNumber;
  listFailure: ApiError | undefined;
  /** The count shown: `X-RateLimit-Remaining` of the call sent last whose answer carried it. */
  quota: ShownQuota | undefined;
  /** The call sent last whose answer told nothing of the count; the count is stale while it came after `quota.from`. */
  quotaSilence: { from: CallNumber; why: QuotaStaleness } | undefined;
  /** The failure of the call sent last, shown once (banner or message); undefined after a success. */
  failure: (ApiError & { retryAfter?: number }) | undefined;
  /** The call `failure` comes from. */
  failureFrom: CallNumber;
}

/** The page before its first call. */
export const INITIAL_PAGE_STATE: PageState = {
  nextCall: 1,
  listsInFlight: 0,
  categories: undefined,
  listFrom: 0,
  listLoadedBy: 0,
  listFailedBy: 0,
  listFailure: undefined,
  quota: undefined,
  quotaSilence: undefined,
  failure: undefined,
  failureFrom: 0,
};

/**
 * A call leaves: it gets the next number (and a list call shows the loading line).
 * @example const { state: next, call } = callSent(state, 'list')
 */
export function callSent(state: PageState, kind: PageCall): { state: PageState; call: CallNumber } {
  return {
    call: state.nextCall,
    state: {
      ...state,
      nextCall: state.nextCall + 1,
      listsInFlight: state.listsInFlight + (kind === 'list' ? 1 : 0),
    },
  };
}

/**
 * A call's answer (or its lack: `network_error`), in whatever order answers arrive. Each part of the page
 * takes it only if no call sent later has already set that part.
 * @example state = answered(state, 'list', call, await client.listCategories())
 */
export function answered(
  state: PageState,
  kind: PageCall,
  call: CallNumber,
  result: ApiResult<Category[] | Category>,
): PageState {
  let next: PageState = {
    ...state,
    listsInFlight: state.listsInFlight - (kind === 'list' ? 1 : 0),
  };
  next = { ...next, ...quotaFrom(state, call, result) };
  if (call > state.failureFrom)
    next = {
      ...next,
      failureFrom: call,
      failure: result.ok
        ? undefined
        : { ...result.error, ...(result.retryAfter !== undefined && { retryAfter: result.retryAfter }) },
    };
  return { ...next, ...listFrom(state, kind, call, result) };
}

/**
 * The error that makes the list shown out of date (a list call sent after the one it came from failed;
 * `network_error` when it got no answer), or undefined while the list is current.
 * @example const stale = listStaleness(state); if (stale) markStale(stale.code)
 */
export function listStaleness(state: PageState): ApiError | undefined {
  return state.listFailedBy > state.listLoadedBy ? state.listFailure : undefined;
}

/**
 * Why the count shown is only the last known one (the call sent last got no answer, or an answer without
 * `X-RateLimit-Remaining`), or undefined while it is the latest the service said.
 * @example if (quotaStaleness(state) === 'no-answer') say('offline')
 */
export function quotaStaleness(state: PageState): QuotaStaleness | undefined {
  const { quota, quotaSilence } = state;
  return quotaSilence && quotaSilence.from > (quota?.from ?? 0) ? quotaSilence.why : undefined;
}

function quotaFrom(state: PageState, call: CallNumber, result: ApiResult<unknown>): Partial<PageState> {
  if (result.remaining === undefined) {
    if (call <= (state.quotaSilence?.from ?? 0)) return {};
    const why = !result.ok && result.error.code === 'network_error' ? 'no-answer' : 'not-said';
    return { quotaSilence: { from: call, why } };
  }
  if (call <= (state.quota?.from ?? 0)) return {};
  const status = result.ok ? 200 : result.error.status;
  const retryAfter = !result.ok && status === 429 ? result.retryAfter : undefined;
  return {
    quota: {
      left: result.remaining,
      from: call,
      ...(retryAfter !== undefined && { retryAfter }),
      withoutKey: status === 401,
    },
  };
}

function listFrom(
  state: PageState,
  kind: PageCall,
  call: CallNumber,
  result: ApiResult<Category[] | Category>,
): Partial<PageState> {
  if (kind === 'list') {
    if (result.ok)
      return call > state.listFrom ? { categories: result.data as Category[], listFrom: call, listLoadedBy: call } : {};
    return call > state.listFailedBy ? { listFailedBy: call, listFailure: result.error } : {};
  }
  // A create that worked changes the list: a list call sent before it would show the list without it.
  if (result.ok && state.categories)
    return { categories: [...state.categories, result.data as Category], listFrom: Math.max(state.listFrom, call) };
  return {};
}
