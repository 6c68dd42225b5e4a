import { describe, expect, it } from '@jest/globals';
import {
  answered,
  callSent,
  INITIAL_PAGE_STATE,
  listStaleness,
  quotaStaleness,
  type PageCall,
  type PageState,
} from './page-state.js';
import type { ApiResult, Category } from './petstore-client.js';

const SEED: Category[] = [
  { id: 1, name: 'dog' },
  { id: 2, name: 'cat' },
];
const listed = (data: Category[], remaining?: number): ApiResult<Category[]> => ({ ok: true, data, remaining });
const created = (category: Category, remaining?: number): ApiResult<Category> => ({
  ok: true,
  data: category,
  remaining,
});
const failed = (status: number, code: string, remaining?: number, retryAfter?: number): ApiResult<never> => ({
  ok: false,
  error: { status, code, message: `${code} message` },
  remaining,
  ...(retryAfter !== undefined && { retryAfter }),
});
const noAnswer: ApiResult<never> = {
  ok: false,
  error: { status: 0, code: 'network_error', message: 'GET /v1/categories failed: Failed to fetch' },
  remaining: undefined,
};

/** Sends the calls in order, then answers them in the order given by `answerOrder` (indexes into `calls`). */
function play(
  calls: { kind: PageCall; result: ApiResult<Category[] | Category> }[],
  answerOrder = calls.map((_, index) => index),
  start: PageState = INITIAL_PAGE_STATE,
): PageState {
  let state = start;
  const numbers: number[] = [];
  for (const { kind } of calls) {
    const sent = callSent(state, kind);
    state = sent.state;
    numbers.push(sent.call);
  }
  for (const index of answerOrder) state = answered(state, calls[index]!.kind, numbers[index]!, calls[index]!.result);
  return state;
}

const loaded = play([{ kind: 'list', result: listed(SEED, 2) }]);

describe('the page state: every answer, in the order the calls were sent', () => {
  it('a list answer shows the list and the count it carried', () => {
    expect(loaded).toMatchObject({ categories: SEED, quota: { left: 2 }, failure: undefined });
    expect(listStaleness(loaded)).toBeUndefined();
    expect(quotaStaleness(loaded)).toBeUndefined();
    expect(loaded.listsInFlight).toBe(0);
  });

  it('a failed reload keeps the list, out of date, with its error; the next good reload makes it current', () => {
    const unavailable = play([{ kind: 'list', result: failed(503, 'service_unavailable', 1) }], undefined, loaded);
    expect(unavailable).toMatchObject({
      categories: SEED,
      quota: { left: 1 },
      failure: { code: 'service_unavailable' },
    });
    expect(listStaleness(unavailable)).toMatchObject({ status: 503 });
    const again = play([{ kind: 'list', result: listed(SEED, 0) }], undefined, unavailable);
    expect(listStaleness(again)).toBeUndefined();
    expect(again).toMatchObject({ failure: undefined, quota: { left: 0 } });
  });

  it('a reload with no answer keeps the list and the count, both marked', () => {
    const offline = play([{ kind: 'list', result: noAnswer }], undefined, loaded);
    expect(listStaleness(offline)).toMatchObject({ code: 'network_error' });
    expect(offline).toMatchObject({ quota: { left: 2 }, failure: { code: 'network_error' } });
    expect(quotaStaleness(offline)).toBe('no-answer');
  });

  it('an answer without X-RateLimit-Remaining marks the count as the last known; the next one with it clears that', () => {
    const gateway = play([{ kind: 'list', result: failed(502, 'bad_gateway') }], undefined, loaded);
    expect(gateway.quota?.left).toBe(2);
    expect(quotaStaleness(gateway)).toBe('not-said');
    const told = play([{ kind: 'create', result: failed(400, 'invalid_request', 1) }], undefined, gateway);
    expect(told.quota?.left).toBe(1);
    expect(quotaStaleness(told)).toBeUndefined();
  });

  it('a 429 carries its count and Retry-After; a later answer drops the Retry-After', () => {
    const limited = play([{ kind: 'create', result: failed(429, 'rate_limit_exceeded', 0, 30) }], undefined, loaded);
    expect(limited).toMatchObject({ quota: { left: 0, retryAfter: 30 }, failure: { code: 'rate_limit_exceeded' } });
    expect(listStaleness(limited)).toBeUndefined(); // a refused create does not make the list old
    expect(play([{ kind: 'list', result: listed(SEED, 59) }], undefined, limited).quota).toEqual({
      left: 59,
      from: 3,
      withoutKey: false,
    });
  });

  it("a 401's count is said to be for calls without a valid key", () => {
    expect(play([{ kind: 'list', result: failed(401, 'invalid_api_key', 58) }], undefined, loaded)).toMatchObject({
      quota: { left: 58, withoutKey: true },
    });
  });

  it('a list answer that arrives after a later create neither puts its count back nor drops the created category', () => {
    const state = play(
      [
        { kind: 'list', result: listed(SEED, 2) },
        { kind: 'create', result: created({ id: 3, name: 'hamster' }, 1) },
      ],
      [1, 0],
      loaded,
    );
    expect(state).toMatchObject({ quota: { left: 1 }, categories: [...SEED, { id: 3, name: 'hamster' }] });
    expect(state.listsInFlight).toBe(0);
  });

  it('an older failure arriving late changes nothing; an older success does not hide a later failure', () => {
    const lateFailure = play(
      [
        { kind: 'list', result: failed(503, 'service_unavailable', 1) },
        { kind: 'list', result: listed(SEED, 0) },
      ],
      [1, 0],
      loaded,
    );
    expect(lateFailure).toMatchObject({ quota: { left: 0 }, failure: undefined });
    expect(listStaleness(lateFailure)).toBeUndefined();
    const lateSuccess = play(
      [
        { kind: 'list', result: listed(SEED, 1) },
        { kind: 'list', result: noAnswer },
      ],
      [1, 0],
      loaded,
    );
    expect(listStaleness(lateSuccess)).toMatchObject({ code: 'network_error' });
    // The late list's count is the latest the service said, still marked: the call sent after it got no answer.
    expect(lateSuccess).toMatchObject({ quota: { left: 1 }, failure: { code: 'network_error' } });
    expect(quotaStaleness(lateSuccess)).toBe('no-answer');
  });

  it('the loading line stays while any list is on its way', () => {
    const first = callSent(loaded, 'list');
    const second = callSent(first.state, 'list');
    const oneBack = answered(second.state, 'list', second.call, listed(SEED, 0));
    expect(oneBack.listsInFlight).toBe(1);
    expect(answered(oneBack, 'list', first.call, listed(SEED, 1)).listsInFlight).toBe(0);
  });

  it('a first list that fails leaves no list to mark, only the failure', () => {
    const state = play([{ kind: 'list', result: failed(503, 'service_unavailable', 59) }]);
    expect(state.categories).toBeUndefined();
    expect(listStaleness(state)).toMatchObject({ status: 503 });
  });
});
