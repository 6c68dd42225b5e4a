import { exampleRequest, operationModels } from '../generate/operation-model.js';
import type { Check } from './check.js';
import { expectConforms, expectErrorBody, expectStatus } from './expectations.js';

/** GET /categories with the key: 200, JSON, an array of Category, documented headers valid. */
export const listCategoriesConforms: Check = {
  name: 'list_categories_conforms',
  verifies: 'GET /categories answers 200 with a JSON array of Category and valid X-RateLimit-* headers',
  needs: [],
  async run({ send }) {
    const exchange = await send({ method: 'GET', path: '/categories' });
    expectStatus(exchange, [200]);
    expectConforms('listCategories', exchange);
  },
};

/** GET /store/orders with the key: 200, JSON, an array of Order. */
export const listOrdersConforms: Check = {
  name: 'list_orders_conforms',
  verifies: 'GET /store/orders answers 200 with a JSON array of Order and valid X-RateLimit-* headers',
  needs: [],
  async run({ send }) {
    const exchange = await send({ method: 'GET', path: '/store/orders' });
    expectStatus(exchange, [200]);
    expectConforms('listOrders', exchange);
  },
};

/** GET /pets/{petId} for a seeded, a likely unknown and a malformed id: each answer as documented. */
export const getPetConforms: Check = {
  name: 'get_pet_conforms',
  verifies: 'GET /pets/{petId} answers a Pet (200) or a documented 404/410, and 400 for a non-integer id',
  needs: [],
  async run({ send }) {
    // Which pets exist is data, not contract (staging may have none; after the sunset all are 410).
    for (const path of ['/pets/1', '/pets/987654321']) {
      const pet = await send({ method: 'GET', path });
      expectStatus(pet, [200, 404, 410], `GET ${path}`);
      expectConforms('getPetById', pet, `GET ${path}`);
    }
    const malformed = await send({ method: 'GET', path: '/pets/not-a-number' });
    expectStatus(malformed, [400], 'petId "not-a-number"');
    expectConforms('getPetById', malformed, 'petId "not-a-number"');
  },
};

/** POST /categories with a valid body: 201 and a Category. */
export const createCategoryConforms: Check = {
  name: 'create_category_conforms',
  verifies: 'POST /categories with a valid NewCategory answers 201 with a Category and valid X-RateLimit-* headers',
  needs: ['writes'],
  async run({ send }) {
    const exchange = await send({
      method: 'POST',
      path: '/categories',
      json: { name: 'contract-hamster', description: 'Small rodents' },
    });
    expectStatus(exchange, [201]);
    expectConforms('createCategory', exchange);
  },
};

/** The declared failure, asked for where the target has a test control for it: every operation's 500 as the spec writes it. */
export const declaredFailureConforms: Check = {
  name: 'declared_failure_conforms',
  verifies:
    "every operation's declared 500, asked for with `Prefer: code=500`, is the spec's Error (internal_error) with the headers the spec declares for it; a 5xx nobody asked for fails whichever check got it (no_server_error)",
  needs: ['preferredStatus'],
  async run({ send, capabilities }) {
    for (const model of operationModels()) {
      if (!model.safe && !capabilities.includes('writes')) continue;
      const request = { ...exampleRequest(model), headers: { Prefer: 'code=500' } };
      const what = `${request.method} ${request.path} with Prefer: code=500`;
      const exchange = await send(request);
      expectStatus(exchange, [500], what);
      expectErrorBody(exchange, undefined, what);
      expectConforms(model.operation.operationId, exchange, what);
    }
  },
};
