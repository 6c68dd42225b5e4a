import { exampleRequest, operationModels } from '../generate/operation-model.js';
import { errorCodeOf, type Exchange } from '../core/exchange.js';
import { CheckFailure, type Check } from './check.js';

type Body = Record<string, unknown>;

/** The body's text with `name` sent twice: `first`, then the rest of the body, then `second`. */
function repeatedMember(body: Body, name: string, first: unknown, second: unknown): string {
  const rest = Object.entries(body)
    .filter(([field]) => field !== name)
    .map(([field, value]) => `${JSON.stringify(field)}:${JSON.stringify(value)}`);
  return `{${[`${JSON.stringify(name)}:${JSON.stringify(first)}`, ...rest, `${JSON.stringify(name)}:${JSON.stringify(second)}`].join(',')}}`;
}

/** Another valid value of a string property: the same text one character shorter or with one more. */
function otherValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return value.length > 1 ? value.slice(0, -1) : `${value}b`;
}

/**
 * Every write with each member of its example body sent twice, with two different valid values
 * (RFC 8259 §4: the meaning is then unpredictable). Refused with 400, or taken with one of the
 * two values and listed as answered (the model's `stored_as_sent` holds the list); never a 5xx, never
 * a value nobody sent, never both values merged.
 */
export const repeatedMembersHandled: Check = {
  name: 'repeated_members_handled',
  holds: 'repeated_members_handled',
  verifies:
    'every write whose body repeats a member (two valid values) is refused with 400 invalid_request or answered with one of the values sent, never 5xx or a value nobody sent',
  needs: ['writes'],
  async run({ send, marked }) {
    for (const model of operationModels().filter(({ bodySchema }) => bodySchema)) {
      const base = marked(exampleRequest(model));
      const body = base.json as Body;
      for (const name of Object.keys(body)) {
        const first = body[name];
        const second = otherValue(first);
        const text = repeatedMember(body, name, first, second);
        const exchange: Exchange = await send({ method: base.method, path: base.path, rawBody: text });
        const what = `${base.method} ${base.path} with "${name}" sent twice: ${JSON.stringify(first)}, then ${JSON.stringify(second)}`;
        if (exchange.status === 400 && errorCodeOf(exchange) === 'invalid_request') continue;
        if (exchange.status !== model.successStatus)
          throw new CheckFailure(
            `A repeated member is neither refused nor taken (${what})`,
            [
              `Received: ${exchange.status} / Expected: 400 invalid_request, or ${model.successStatus} with one of the values`,
            ],
            exchange,
          );
        const taken = (exchange.json as Body | undefined)?.[name];
        if (JSON.stringify(taken) !== JSON.stringify(first) && JSON.stringify(taken) !== JSON.stringify(second))
          throw new CheckFailure(
            `A repeated member is answered with a value nobody sent (${what})`,
            [
              `Received: "${name}": ${JSON.stringify(taken)} / Expected: ${JSON.stringify(first)} or ${JSON.stringify(second)}`,
            ],
            exchange,
          );
      }
    }
  },
};
