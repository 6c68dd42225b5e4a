import type { FastifyInstance } from 'fastify';
import type { PetStore } from './data.js';
import { refuseOtherMethods } from './method-not-allowed.js';

export function orderRoutes(api: FastifyInstance, store: PetStore): void {
  api.get('/store/orders', async () => store.listOrders());

  refuseOtherMethods(api, '/store/orders', ['GET', 'HEAD']);
}
