import fc from 'fast-check';
import { invalidObjectCases } from '../generate/invalid-values.js';
import { exampleRequest, invalidPathValues, operationModels, pathOf } from '../generate/operation-model.js';
import { resolveSchema, type JsonSchema } from '../core/spec-document.js';
import { specValidators } from '../conformance/spec-validators.js';
import type { Exchange } from '../core/exchange.js';
import type { Check, CheckContext } from './check.js';
import { expectErrorBody, expectStatus } from './expectations.js';
import { reportRule } from './rule-reports.js';

/**
 * The members of a body its schema faults, read from the body and the spec alone: a property the
 * schema does not declare, a required one missing, a declared one whose value breaks its own schema.
 * Empty when the body is not an object (its fault is the whole body).
 */
export function faultedMembers(schema: JsonSchema, body: unknown): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  const target = resolveSchema(schema);
  const properties = (target.properties ?? {}) as Record<string, JsonSchema>;
  const sent = body as Record<string, unknown>;
  const unknown =
    target.additionalProperties === false ? Object.keys(sent).filter((name) => !(name in properties)) : [];
  const missing = ((target.required ?? []) as string[]).filter((name) => !(name in sent));
  const invalid = Object.entries(properties)
    .filter(([name, property]) => name in sent && !specValidators().schema(property)(sent[name]))
    .map(([name]) => name);
  return [...unknown, ...missing, ...invalid];
}

/** A message that names none of the members at fault: a note, never a failure (its wording is the service's). */
function noteUnnamed(context: CheckContext, exchange: Exchange, names: readonly string[], what: string): void {
  const message = (exchange.json as { message?: unknown } | undefined)?.message;
  if (typeof message === 'string' && names.some((name) => message.includes(name))) return;
  reportRule(
    context,
    'error_messages_name_the_fault',
    `The 400 message names none of ${names.join(', ')} (${what})`,
    [`Received: "message": ${JSON.stringify(message)} / Could name: ${names.map((name) => `"${name}"`).join(' or ')}`],
    exchange,
  );
}

/**
 * One fixed case of every kind of fault the generators know, on every operation: a 400 invalid_request.
 * Whether its message names the member or parameter at fault is noted, never failed: the spec asks for a
 * "description naming what is wrong", and a service that never repeats a request's input in a message
 * (a member name the client made up) reads that sentence as the spec allows.
 */
export const errorMessagesNameTheField: Check = {
  name: 'error_messages_name_the_field',
  verifies:
    'every body breaking its schema (a property unknown, missing, too long, of a wrong type, in another letter case) and every invalid path parameter answers 400 invalid_request; a message naming none of the members or parameters at fault is noted (a MAY: its wording is never a failure)',
  needs: ['uniformErrors'],
  async run(context) {
    const { send, marked, seed, capabilities } = context;
    for (const model of operationModels()) {
      for (const parameter of model.pathParameters) {
        const [invalid] = invalidPathValues(parameter).examples;
        if (!invalid) continue;
        const path = pathOf(model, { [parameter.name]: invalid.value });
        const what = `${model.operation.method} ${path} (${parameter.name}: ${invalid.breaks})`;
        if (!model.safe && !capabilities.includes('writes')) continue;
        const exchange = await send(exampleRequest(model, { path }));
        expectStatus(exchange, [400], what);
        expectErrorBody(exchange, 'invalid_request', what);
        noteUnnamed(context, exchange, [parameter.name], what);
      }
      if (!model.bodySchema) continue;
      const valid = marked(exampleRequest(model)).json as Record<string, unknown>;
      for (const { breaks, values } of invalidObjectCases(model.bodySchema, fc.constant(valid))) {
        const [body] = fc.sample(values, { numRuns: 1, seed });
        const names = faultedMembers(model.bodySchema, body);
        if (names.length === 0) continue;
        const what = `${model.operation.method} ${model.operation.path} with ${breaks}`;
        const exchange = await send({ ...exampleRequest(model), json: body });
        expectStatus(exchange, [400], what);
        expectErrorBody(exchange, 'invalid_request', what);
        noteUnnamed(context, exchange, names, what);
      }
    }
  },
};
