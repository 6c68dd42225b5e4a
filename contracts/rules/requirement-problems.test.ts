import { describe, expect, it } from '@jest/globals';
import { THE_SPEC } from '../core/requirement.js';
import { PROMISES, PROMISE_NAMES } from '../model/promise-rules.js';
import { requirementProblems } from './requirement-problems.js';
import { RULES, RULE_NAMES } from './rule-table.js';

describe('every rule and promise is a requirement on the server, quoted', () => {
  it('holds for every row of the rule table', () => {
    expect(
      RULE_NAMES.flatMap((name) => requirementProblems(name, RULES[name].strength, RULES[name].requirement)),
    ).toEqual([]);
  });

  it('holds for every promise of the model', () => {
    expect(
      PROMISE_NAMES.flatMap((name) => requirementProblems(name, PROMISES[name].strength, PROMISES[name].requirement)),
    ).toEqual([]);
  });

  it('fails a MUST with no quote, one quoting the sender, one whose RFC quote binds nothing, and a misquoted spec', () => {
    expect(requirementProblems('r', 'MUST', undefined)).toEqual(['r: no quoted requirement']);
    expect(
      requirementProblems('r', 'MUST', {
        quote: 'a sender MUST NOT generate multiple field lines with the same name in a message',
        where: 'RFC 9110 §5.3',
        binds: 'sender',
      }),
    ).toEqual(['r: a MUST quoting a requirement on the sender']);
    expect(
      requirementProblems('r', 'MUST', {
        quote: 'An origin server SHOULD NOT generate a Server header field containing needlessly fine-grained detail',
        where: 'RFC 9110 §10.2.4',
        binds: 'server',
      }),
    ).toEqual(['r: a MUST whose quote (RFC 9110 §10.2.4) has no MUST, REQUIRED or SHALL']);
    expect(
      requirementProblems('r', 'MUST', { quote: 'Every client is anonymous.', where: THE_SPEC, binds: 'server' }),
    ).toEqual(['r: quotes "Every client is anonymous.", which spec/openapi.yaml does not say']);
  });

  it('lets a requirement on the sender, or on nobody, be a SHOULD', () => {
    expect(
      requirementProblems('r', 'SHOULD', {
        quote: 'a sender MUST NOT generate multiple field lines with the same name in a message',
        where: 'RFC 9110 §5.3',
        binds: 'sender',
      }),
    ).toEqual([]);
  });
});
