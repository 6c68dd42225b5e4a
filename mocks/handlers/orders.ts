import { jsonAnswer } from './api-call.js';
import { afterStep } from './operation-plan.js';
import type { Operation } from './operation.js';

/** `listOrders`. */
export function orderOperations(): Operation[] {
  return [
    {
      operationId: 'listOrders',
      method: 'GET',
      path: '/store/orders',
      specPath: '/store/orders',
      plan: () => afterStep({ kind: 'listOrders' }, (orders) => jsonAnswer(orders)),
    },
  ];
}
