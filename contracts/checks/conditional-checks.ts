import { exampleRequest, operationModels } from '../generate/operation-model.js';
import { RULES, type RuleName } from '../rules/rule-table.js';
import { headerOf, type Exchange } from '../core/exchange.js';
import type { Check, CheckContext } from './check.js';
import { reportRule } from './rule-reports.js';

/** A rule of the table the check's own requests showed broken, its source in the title. */
function broke(context: CheckContext, rule: RuleName, title: string, line: string, exchange: Exchange): void {
  reportRule(context, rule, `${title} (${RULES[rule].source})`, [line], exchange);
}

/**
 * Conditional requests on every read, derived from what each answer offered: its ETag in If-None-Match
 * must give 304 without content, its Last-Modified in If-Modified-Since should; a tag nobody offered
 * must give the full answer, and an error answer stays the error (RFC 9110 §13.2.1). A target that
 * offers no validator is still held to the last two: it must not answer 304 to what it never said.
 */
export const conditionalRequestsHonoured: Check = {
  name: 'conditional_requests_honoured',
  verifies:
    'every read with the validator its answer offered (If-None-Match with the ETag, If-Modified-Since with Last-Modified) answers 304 without content; a tag never offered gets the full answer, an error stays the error',
  needs: [],
  async run(context) {
    const { send, seed } = context;
    for (const model of operationModels().filter(({ safe }) => safe)) {
      const request = exampleRequest(model);
      const what = `${request.method} ${request.path}`;
      const plain = await send(request);
      const stranger = await send({ ...request, headers: { 'If-None-Match': `"never-offered-${seed}"` } });
      if (stranger.status === 304 || (plain.status < 300 && stranger.status !== plain.status))
        broke(
          context,
          'if_none_match_honoured',
          `${what} with an entity tag it never offered is not answered in full`,
          `Received: ${stranger.status} / Expected: ${plain.status}, as without the condition`,
          stranger,
        );
      // No representation of this interface dates from 1994: a 304 to it says a copy nobody has is current.
      const ancient = await send({ ...request, headers: { 'If-Modified-Since': 'Sun, 06 Nov 1994 08:49:37 GMT' } });
      if (ancient.status === 304 || (plain.status < 300 && ancient.status !== plain.status))
        broke(
          context,
          'not_modified_only_when_unchanged',
          `${what} with If-Modified-Since: Sun, 06 Nov 1994 08:49:37 GMT is not answered in full`,
          `Received: ${ancient.status} / Expected: ${plain.status}, as without the condition`,
          ancient,
        );
      const etag = headerOf(plain, 'etag');
      if (plain.status === 200 && etag !== undefined) {
        const revalidated = await send({ ...request, headers: { 'If-None-Match': etag } });
        if (revalidated.status !== 304)
          broke(
            context,
            'if_none_match_honoured',
            `${what} with If-None-Match: ${etag} (the ETag it offered) is not a 304`,
            `Received: ${revalidated.status} / Expected: 304 Not Modified`,
            revalidated,
          );
        else if (headerOf(revalidated, 'etag') !== etag)
          broke(
            context,
            'if_none_match_honoured',
            `${what}: the 304 does not carry the ETag the 200 did (RFC 9110 §15.4.5)`,
            `Received: ETag: ${headerOf(revalidated, 'etag') ?? '(none)'} / Expected: ETag: ${etag}`,
            revalidated,
          );
      }
      // A resource that offered a tag has a current representation: `*` matches it (RFC 9110 §13.1.2).
      if (plain.status === 200 && etag !== undefined) {
        const any = await send({ ...request, headers: { 'If-None-Match': '*' } });
        if (any.status !== 304)
          broke(
            context,
            'if_none_match_honoured',
            `${what} with If-None-Match: * (any current representation) is not a 304`,
            `Received: ${any.status} / Expected: 304 Not Modified: the resource offered ETag: ${etag}`,
            any,
          );
      }
      const lastModified = headerOf(plain, 'last-modified');
      if (plain.status === 200 && lastModified !== undefined) {
        const revalidated = await send({ ...request, headers: { 'If-Modified-Since': lastModified } });
        if (revalidated.status !== 304)
          broke(
            context,
            'if_modified_since_honoured',
            `${what} with If-Modified-Since: ${lastModified} (its Last-Modified) is not a 304`,
            `Received: ${revalidated.status} / Expected: 304 Not Modified`,
            revalidated,
          );
      }
    }
    // An error is not a representation: a condition cannot turn it into a 304.
    const missing = operationModels().find(({ safe, pathParameters }) => safe && pathParameters.length > 0);
    if (missing) {
      const request = {
        method: 'GET',
        path: missing.operation.path.replace(/\{[^}]+\}/g, '999999999'),
        headers: { 'If-None-Match': '*' },
      };
      const exchange = await send(request);
      if (exchange.status === 304)
        broke(
          context,
          'if_none_match_honoured',
          `GET ${request.path} with If-None-Match: * answers 304 where there is no representation`,
          `Received: 304 / Expected: the answer without the condition (404)`,
          exchange,
        );
    }
  },
};
