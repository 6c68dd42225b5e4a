import { describeSchemaErrors } from '../../spec/schema-errors.js';
import { apiError } from '../domain/errors.js';
import { checkJsonContentType, parseJsonBody } from '../domain/request-body.js';
import type { NewCategory } from '../domain/seed.js';
import { errorAnswer, jsonAnswer } from './api-call.js';
import type { FakeContext } from './context.js';
import { afterStep, answerWith, type Planner } from './operation-plan.js';
import type { Operation } from './operation.js';

/** `listCategories` and `createCategory`. */
export function categoryOperations(context: Pick<FakeContext, 'schemas'>): Operation[] {
  const validateNewCategory = context.schemas.validator('NewCategory');

  const listCategories: Planner = () => afterStep({ kind: 'listCategories' }, (categories) => jsonAnswer(categories));

  // The body is judged before the guards, so that only a valid one is written; a refusal still comes first.
  const createCategory: Planner = async (call) => {
    const wrongMediaType = checkJsonContentType(call.header('content-type'));
    if (wrongMediaType) return answerWith(errorAnswer(wrongMediaType));
    const body = parseJsonBody(await call.body());
    if (!body.ok) return answerWith(errorAnswer(body.error));
    if (!validateNewCategory(body.value)) {
      return answerWith(
        errorAnswer(apiError('invalid_request', describeSchemaErrors(validateNewCategory.errors, 'body'))),
      );
    }
    return afterStep({ kind: 'createCategory', category: body.value as NewCategory }, (category) =>
      jsonAnswer(category, 201),
    );
  };

  return [
    {
      operationId: 'listCategories',
      method: 'GET',
      path: '/categories',
      specPath: '/categories',
      plan: listCategories,
    },
    {
      operationId: 'createCategory',
      method: 'POST',
      path: '/categories',
      specPath: '/categories',
      plan: createCategory,
    },
  ];
}
