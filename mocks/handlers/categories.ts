import { describeSchemaErrors } from '../../spec/schema-errors.js';
import { apiError } from '../domain/errors.js';
import { checkJsonContentType, parseJsonBody } from '../domain/request-body.js';
import type { NewCategory } from '../domain/seed.js';
import { errorAnswer, jsonAnswer } from './api-call.js';
import type { FakeContext } from './context.js';
import { guarded } from './guarded.js';
import type { Operation } from './operation.js';

/** `listCategories` and `createCategory`. */
export function categoryOperations(context: FakeContext): Operation[] {
  const validateNewCategory = context.schemas.validator('NewCategory');

  const listCategories = guarded(context, async () => jsonAnswer(await context.store.records.listCategories()));

  const createCategory = guarded(context, async ({ call }) => {
    const wrongMediaType = checkJsonContentType(call.header('content-type'));
    if (wrongMediaType) return errorAnswer(wrongMediaType);
    const body = parseJsonBody(await call.body());
    if (!body.ok) return errorAnswer(body.error);
    if (!validateNewCategory(body.value)) {
      return errorAnswer(apiError('invalid_request', describeSchemaErrors(validateNewCategory.errors, 'body')));
    }
    return jsonAnswer(await context.store.records.createCategory(body.value as NewCategory), 201);
  });

  return [
    { operationId: 'listCategories', method: 'GET', path: '/categories', resolve: listCategories },
    { operationId: 'createCategory', method: 'POST', path: '/categories', resolve: createCategory },
  ];
}
