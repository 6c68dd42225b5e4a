import fc from 'fast-check';
import { resolveSchema, type JsonSchema } from '../core/spec-document.js';
import { exampleRequest, operationModels, type OperationModel } from '../generate/operation-model.js';
import { validValues } from '../generate/valid-values.js';
import type { Check } from './check.js';
import { expectErrorBody, expectStatus } from './expectations.js';

const propertiesOf = (schema: JsonSchema | undefined): Record<string, JsonSchema> =>
  schema === undefined
    ? {}
    : (((resolveSchema(schema) as { properties?: Record<string, JsonSchema> }).properties ?? {}) as Record<
        string,
        JsonSchema
      >);

/**
 * The fields the service sets that a client may not (OWASP API3:2023 mass assignment), derived from the
 * spec: the properties of the answer to a write that its request body does not declare (`id`).
 */
function serverOwnedFields(model: OperationModel): Array<[string, JsonSchema]> {
  const answer = model.operation.responses[String(model.successStatus)]?.content['application/json'];
  const sent = propertiesOf(model.bodySchema);
  return Object.entries(propertiesOf(answer)).filter(([name]) => !(name in sent));
}

/** Every write carrying a field only the service sets, with a valid value, is refused and stores nothing. */
export const serverFieldsNotAssignable: Check = {
  name: 'server_fields_not_assignable',
  holds: 'no_mass_assignment',
  verifies:
    'every write (from the spec) whose body adds a field only the service sets (a property of its answer the request schema lacks, such as id), with a valid value, answers 400 invalid_request and stores nothing (OWASP API3)',
  needs: ['writes'],
  async run({ send, seed }) {
    for (const model of operationModels().filter(({ safe, bodySchema }) => !safe && bodySchema)) {
      const plain = exampleRequest(model);
      for (const [name, schema] of serverOwnedFields(model)) {
        const [value] = fc.sample(validValues(schema), { numRuns: 1, seed });
        const json = { ...(plain.json as object), [name]: value };
        const what = `${plain.method} ${plain.path} setting ${name} to ${JSON.stringify(value)}`;
        // The model's refused_never_admitted fails a 2xx as it comes; the status and code are the spec's.
        const exchange = await send({ ...plain, json });
        expectStatus(exchange, [400], what);
        expectErrorBody(exchange, 'invalid_request', what);
      }
    }
  },
};
