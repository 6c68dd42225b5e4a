import { apiPath, jsonOf, rebuiltRequest, withHeaders, withJson, type BrokenVariant } from './variant.js';

const isCreate = (request: Request) => request.method === 'POST' && apiPath(request) === '/categories';
const isList = (request: Request) => request.method === 'GET' && apiPath(request) === '/categories';
const SEEDED_IDS = 3;

type Record = { [key: string]: unknown };

/** Variants that break responses' shapes, request validation or what is stored. */
export const BODY_AND_STATE_VARIANTS: BrokenVariant[] = [
  {
    name: 'category-id-as-string',
    breaks: 'Category.id is sent as a string ("1"), not an integer',
    caughtBy: ['list_categories_conforms'],
    intercept: async (request, next) => {
      const response = await next(request);
      if (!isList(request) || response.status !== 200) return response;
      return withJson(response, (json) =>
        (json as Record[]).map((category) => ({ ...category, id: String(category.id) })),
      );
    },
  },
  {
    name: 'list-served-as-text-plain',
    breaks: 'GET /categories declares Content-Type text/plain',
    caughtBy: ['list_categories_conforms'],
    intercept: async (request, next) => {
      const response = await next(request);
      return isList(request) && response.status === 200
        ? withHeaders(response, (headers) => headers.set('content-type', 'text/plain'))
        : response;
    },
  },
  {
    name: 'order-quantity-as-string',
    breaks: 'Order.quantity is sent as a string',
    caughtBy: ['list_orders_conforms'],
    intercept: async (request, next) => {
      const response = await next(request);
      if (apiPath(request) !== '/store/orders' || response.status !== 200) return response;
      return withJson(response, (json) =>
        (json as Record[]).map((order) => ({ ...order, quantity: String(order.quantity) })),
      );
    },
  },
  {
    name: 'pet-status-outside-enum',
    breaks: 'Pet.status is "lost", outside available|pending|sold',
    caughtBy: ['get_pet_conforms'],
    intercept: async (request, next) => {
      const response = await next(request);
      return apiPath(request).startsWith('/pets/') && response.status === 200
        ? withJson(response, (json) => ({ ...(json as Record), status: 'lost' }))
        : response;
    },
  },
  {
    name: 'create-answers-200',
    breaks: 'a created category is answered 200 instead of the documented 201',
    caughtBy: ['create_category_conforms'],
    intercept: async (request, next) => {
      const response = await next(request);
      return isCreate(request) && response.status === 201 ? withJson(response, (json) => json, 200) : response;
    },
  },
  {
    name: 'extra-properties-accepted',
    breaks: 'a body with unknown properties is not refused with 400 (they are silently dropped)',
    caughtBy: ['invalid_body_rejected'],
    intercept: async (request, next) => {
      const body = isCreate(request) ? await jsonOf(request) : undefined;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return next(request);
      const { name, description, ...extra } = body as Record;
      if (Object.keys(extra).length === 0) return next(request);
      return next(await rebuiltRequest(request, { body: JSON.stringify({ name, description }) }));
    },
  },
  {
    name: 'invalid-body-stored',
    breaks: 'an invalid body is answered 400 but stored anyway (coerced)',
    caughtBy: ['invalid_body_not_stored'],
    intercept: async (request, next) => {
      const body = isCreate(request) ? await jsonOf(request) : undefined;
      const response = await next(request);
      if (response.status === 400 && body !== undefined) {
        const name =
          typeof (body as Record | null)?.name === 'string'
            ? String((body as Record).name)
                .trim()
                .slice(0, 100)
            : '';
        await next(await rebuiltRequest(request, { body: JSON.stringify({ name: name || 'coerced' }) }));
      }
      return response;
    },
  },
  {
    name: 'malformed-json-500',
    breaks: 'a body that is not JSON crashes the service (500, text/plain)',
    caughtBy: ['malformed_json_rejected'],
    intercept: async (request, next) => {
      const declaresJson = request.headers.get('content-type')?.startsWith('application/json') ?? false;
      if (isCreate(request) && declaresJson && (await jsonOf(request)) === undefined) {
        return new Response('Internal Server Error', { status: 500, headers: { 'content-type': 'text/plain' } });
      }
      return next(request);
    },
  },
  {
    name: 'media-type-ignored',
    breaks: 'a body declared as something other than application/json is accepted as JSON',
    caughtBy: ['unsupported_media_type_rejected'],
    intercept: async (request, next) =>
      next(
        isCreate(request)
          ? await rebuiltRequest(request, { headers: { 'Content-Type': 'application/json' } })
          : request,
      ),
  },
  {
    name: 'no-body-size-limit',
    breaks: 'a body over 16 KiB is accepted',
    caughtBy: ['payload_too_large_rejected'],
    intercept: async (request, next) => {
      const text = isCreate(request) ? await request.clone().text() : '';
      if (text.length <= 16 * 1024) return next(request);
      return next(await rebuiltRequest(request, { body: text.trim() }));
    },
  },
  {
    name: 'omitted-description-as-empty',
    breaks: 'an omitted description comes back as "" instead of staying omitted',
    caughtBy: ['valid_bodies_stored_as_sent'],
    intercept: async (request, next) => {
      const response = await next(request);
      if (!isCreate(request) || response.status !== 201) return response;
      return withJson(response, (json) => ({ description: '', ...(json as Record) }));
    },
  },
  {
    name: 'stateless-create',
    breaks: 'a created category never shows up in the list (creation keeps no state)',
    caughtBy: ['valid_bodies_stored_as_sent'],
    intercept: async (request, next) => {
      const response = await next(request);
      if (!isList(request) || response.status !== 200) return response;
      return withJson(response, (json) => (json as Record[]).filter((category) => Number(category.id) <= SEEDED_IDS));
    },
  },
  {
    name: 'duplicate-ids',
    breaks: 'every created category is given id 1, an id already taken',
    caughtBy: ['category_ids_unique'],
    intercept: async (request, next) => {
      const response = await next(request);
      return isCreate(request) && response.status === 201
        ? withJson(response, (json) => ({ ...(json as Record), id: 1 }))
        : response;
    },
  },
];
