import { jsonAnswer } from './api-call.js';
import type { FakeContext } from './context.js';
import { afterStep, guarded } from './guarded.js';
import type { Operation } from './operation.js';

/** `listOrders`. */
export function orderOperations(context: FakeContext): Operation[] {
  const listOrders = guarded(context, () => afterStep({ kind: 'listOrders' }, (orders) => jsonAnswer(orders)));
  return [{ operationId: 'listOrders', method: 'GET', path: '/store/orders', resolve: listOrders }];
}
