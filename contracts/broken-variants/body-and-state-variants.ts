import type { OverrideRequest } from '../../mocks/handlers/overrides.js';
import { override } from '../../mocks/handlers/typed-override.js';
import { onCreate, textAnswer, withHeaders, withJson, wrapping, type BrokenVariant } from './variant.js';

const isCreate = (request: OverrideRequest) => request.method === 'POST' && request.path === '/categories';
const SEEDED_IDS = 3;

type Fields = { [key: string]: unknown };

/** Variants that break responses' shapes, request validation or what is stored. */
export const BODY_AND_STATE_VARIANTS: BrokenVariant[] = [
  {
    name: 'category-id-as-string',
    breaks: 'list_categories_conforms',
    does: 'Category.id is sent as a string ("1"), not an integer',
    caughtBy: ['list_categories_conforms'],
    fake: {
      overrides: [
        override.get('/categories', async ({ next }) =>
          withJson(await next(), (json) =>
            (json as Fields[]).map((category) => ({ ...category, id: String(category.id) })),
          ),
        ),
      ],
    },
  },
  {
    name: 'list-served-as-text-plain',
    breaks: 'list_categories_conforms',
    does: 'GET /categories declares Content-Type text/plain',
    caughtBy: ['list_categories_conforms'],
    fake: {
      overrides: [
        override.get('/categories', async ({ next }) => {
          const answer = await next();
          return answer.status === 200
            ? withHeaders(answer, (headers) => headers.set('content-type', 'text/plain'))
            : answer;
        }),
      ],
    },
  },
  {
    name: 'order-quantity-as-string',
    breaks: 'list_orders_conforms',
    does: 'Order.quantity is sent as a string',
    caughtBy: ['list_orders_conforms'],
    fake: {
      overrides: [
        override.get('/store/orders', async ({ next }) =>
          withJson(await next(), (json) =>
            (json as Fields[]).map((order) => ({ ...order, quantity: String(order.quantity) })),
          ),
        ),
      ],
    },
  },
  {
    name: 'pet-status-outside-enum',
    breaks: 'get_pet_conforms',
    does: 'Pet.status is "lost", outside available|pending|sold',
    caughtBy: ['get_pet_conforms'],
    fake: {
      overrides: [
        override.get('/pets/{petId}', async ({ next }) => {
          const answer = await next();
          return answer.status === 200 ? withJson(answer, (json) => ({ ...(json as Fields), status: 'lost' })) : answer;
        }),
      ],
    },
  },
  {
    name: 'create-answers-200',
    breaks: 'create_category_conforms',
    does: 'a created category is answered 200 instead of the documented 201',
    caughtBy: ['create_category_conforms'],
    fake: {
      overrides: [
        override.post('/categories', async ({ next }) => {
          const answer = await next();
          return answer.status === 201 ? { ...answer, status: 200 } : answer;
        }),
      ],
    },
  },
  {
    name: 'property-names-case-folded',
    breaks: 'property_names_exact',
    does: 'member names are matched in any letter case, as a case-insensitive binder does: {"Name": "x"} creates a category named x',
    caughtBy: ['invalid_body_rejected'],
    fake: onCreate(async (request, next) => {
      const body = await request.json();
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return next();
      // NewCategory's members; only a name the body does not also hold in its own case is folded.
      const declared = ['name', 'description'];
      const folded = Object.entries(body as Fields).map(([name, value]) => {
        const own = declared.find((each) => each === name.toLowerCase() && !(each in (body as Fields)));
        return [own ?? name, value] as const;
      });
      const changed = folded.some(([name], index) => name !== Object.keys(body as Fields)[index]);
      return next(changed ? { body: JSON.stringify(Object.fromEntries(folded)) } : undefined);
    }),
  },
  {
    name: 'extra-properties-accepted',
    breaks: 'refused_never_admitted',
    does: 'a body with unknown properties is not refused with 400 (they are silently dropped)',
    caughtBy: ['invalid_body_rejected'],
    fake: {
      overrides: [
        override.post('/categories', async ({ request, next }) => {
          const body = await request.json();
          if (typeof body !== 'object' || body === null || Array.isArray(body)) return next();
          const { name, description, ...extra } = body as Fields;
          return next(Object.keys(extra).length === 0 ? undefined : { body: JSON.stringify({ name, description }) });
        }),
      ],
    },
  },
  {
    name: 'invalid-body-stored',
    breaks: 'invalid_body_not_stored',
    does: 'an invalid body is answered 400 but stored anyway (coerced)',
    caughtBy: ['invalid_body_not_stored'],
    fake: {
      overrides: [
        override.post('/categories', async ({ request, next }) => {
          const body = (await request.json()) as Fields | undefined;
          const answer = await next();
          if (answer.status === 400 && body !== undefined) {
            const name = typeof body?.name === 'string' ? body.name.trim().slice(0, 100) : '';
            await next({ body: JSON.stringify({ name: name || 'coerced' }) });
          }
          return answer;
        }),
      ],
    },
  },
  {
    name: 'malformed-json-500',
    breaks: 'no_server_error',
    does: 'a body that is not JSON crashes the service (500, text/plain)',
    caughtBy: ['malformed_json_rejected'],
    fake: onCreate(async (request, next) => {
      const declaresJson = request.header('content-type')?.startsWith('application/json') ?? false;
      if (declaresJson && (await request.json()) === undefined) {
        return textAnswer(500, 'Internal Server Error', 'text/plain');
      }
      return next();
    }),
  },
  {
    name: 'media-type-ignored',
    breaks: 'refused_never_admitted',
    does: 'a body declared as something other than application/json is accepted as JSON',
    caughtBy: ['unsupported_media_type_rejected'],
    fake: onCreate((_request, next) => next({ headers: { 'Content-Type': 'application/json' } })),
  },
  {
    name: 'no-body-size-limit',
    breaks: 'bounded_consumption',
    does: 'a body over 16 KiB is accepted',
    caughtBy: ['payload_too_large_rejected'],
    fake: wrapping(async (request, next) => {
      const text = isCreate(request) ? await request.text() : '';
      return next(text.length <= 16 * 1024 ? undefined : { body: text.trim() });
    }),
  },
  {
    name: 'omitted-description-as-empty',
    breaks: 'stored_as_sent',
    does: 'an omitted description comes back as "" instead of staying omitted',
    caughtBy: ['valid_bodies_stored_as_sent'],
    fake: {
      overrides: [
        override.post('/categories', async ({ next }) => {
          const answer = await next();
          return answer.status === 201
            ? withJson(answer, (json) => ({ description: '', ...(json as Fields) }))
            : answer;
        }),
      ],
    },
  },
  {
    name: 'stateless-create',
    breaks: 'stored_as_sent',
    does: 'a created category never shows up in the list (creation keeps no state)',
    caughtBy: ['valid_bodies_stored_as_sent'],
    fake: {
      overrides: [
        override.get('/categories', async ({ next }) =>
          withJson(await next(), (json) => (json as Fields[]).filter((category) => Number(category.id) <= SEEDED_IDS)),
        ),
      ],
    },
  },
  {
    name: 'duplicate-ids',
    breaks: 'ids_unique',
    does: 'every created category is given id 1, an id already taken',
    caughtBy: ['writes_read_back'],
    fake: {
      overrides: [
        override.post('/categories', async ({ next }) => {
          const answer = await next();
          return answer.status === 201 ? withJson(answer, (json) => ({ ...(json as Fields), id: 1 })) : answer;
        }),
      ],
    },
  },
];
