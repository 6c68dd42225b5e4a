import { http, HttpResponse } from 'msw';
import type { FakeContext } from './context.js';
import { guarded } from './guarded.js';

/** `listOrders`. */
export function orderHandlers(context: FakeContext) {
  return [http.get(`${context.baseUrl}/store/orders`, guarded(context, () => HttpResponse.json(context.store.listOrders())))];
}
