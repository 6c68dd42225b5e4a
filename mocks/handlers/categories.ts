import { http, HttpResponse } from 'msw';
import { describeSchemaErrors } from '../../spec/schema-registry.js';
import { apiError } from '../domain/errors.js';
import { checkJsonContentType, parseJsonBody } from '../domain/request-body.js';
import type { NewCategory } from '../domain/seed.js';
import type { FakeContext } from './context.js';
import { guarded } from './guarded.js';
import { errorResponse } from './responses.js';

/** `listCategories` and `createCategory`. */
export function categoryHandlers(context: FakeContext) {
  const url = `${context.baseUrl}/categories`;
  const validateNewCategory = context.schemas.validator('NewCategory');

  const listCategories = guarded(context, () => HttpResponse.json(context.store.listCategories()));

  const createCategory = guarded(context, async ({ request }) => {
    const wrongMediaType = checkJsonContentType(request.headers.get('content-type'));
    if (wrongMediaType) return errorResponse(wrongMediaType);
    const body = parseJsonBody(new Uint8Array(await request.arrayBuffer()));
    if (!body.ok) return errorResponse(body.error);
    if (!validateNewCategory(body.value)) {
      return errorResponse(apiError('invalid_request', describeSchemaErrors(validateNewCategory.errors, 'body')));
    }
    const created = await context.store.createCategory(body.value as NewCategory);
    return HttpResponse.json(created, { status: 201 });
  });

  return [http.get(url, listCategories), http.post(url, createCategory)];
}
