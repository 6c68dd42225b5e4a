import type { FakeOptions } from '../../mocks/fake.js';
import type { ContractId } from '../checks/check.js';
import type { CheckName } from '../core/contract-ids.js';
import type { Answer } from '../../mocks/handlers/api-call.js';
import type { OverrideRequest, RequestChanges } from '../../mocks/handlers/overrides.js';
import { override } from '../../mocks/handlers/typed-override.js';

/**
 * A fake broken in exactly one rule, and the checks that must catch it. The break is configuration a
 * user could write (`FakeOptions`: keys, ban policy, clock, faults, overrides...), so the variant runs on
 * the very pipeline users run, in any host.
 * @example { name: 'retry-after-missing', breaks: 'rate_limit_exceeded_answer', does: 'a 429 carries no Retry-After', caughtBy: [...], fake: wrapping(...) }
 */
export interface BrokenVariant {
  name: string;
  /**
   * The id of what it breaks: a rule of the table or a promise of the model, or, where neither states
   * it, the check whose own expectation it breaks. The variant is caught only when a finding with this
   * id appears (broken-variants.test.ts): a check failing for another reason proves nothing.
   */
  breaks: ContractId;
  /** What the variant does, in words: the one thing of the spec or the design (docs/explanation/design.md) it gets wrong. */
  does: string;
  /** Checks that must fail on this variant (others may fail too, as a consequence). */
  caughtBy: CheckName[];
  /**
   * The rule it breaks is a SHOULD (an RFC's SHOULD, OWASP hardening, a "may" of the spec): the checks
   * fail under `--strict`, and a default run passes them with a warning.
   */
  strict?: true;
  /** The fake's options that break the one rule. */
  fake: BrokenConfiguration;
}

/** What a variant may set: the fake's own options (the base URL is the host's). */
export type BrokenConfiguration = Omit<FakeOptions, 'baseUrl' | 'store' | 'onDefect'>;

/** The fake's own answer from the override's stage on, for this request or a changed one. */
export type Next = (changes?: RequestChanges) => Promise<Answer>;

/**
 * A fake whose every request under /v1 goes through `resolve` first: a `beforeAuth` override of all
 * requests, wrapping auth, quota and the operation (what a broken gateway or service in front does).
 */
export function wrapping(resolve: (request: OverrideRequest, next: Next) => Promise<Answer>): BrokenConfiguration {
  return { overrides: [override.all(({ request, next }) => resolve(request, next), { beforeAuth: true })] };
}

/** A fake whose `POST /categories` goes through `resolve` after auth and quota: an override of that one operation. */
export function onCreate(resolve: (request: OverrideRequest, next: Next) => Promise<Answer>): BrokenConfiguration {
  return { overrides: [override.post('/categories', ({ request, next }) => resolve(request, next))] };
}

/** The bearer token the request carries, if any. */
export function tokenOf(request: OverrideRequest): string | undefined {
  return /^Bearer +(\S+)/i.exec(request.header('authorization') ?? '')?.[1];
}

/** Whether the request is on one of the spec's paths, exactly as written (`/pets/{petId}` any one segment). */
export function onSpecPath(request: OverrideRequest): boolean {
  return /^\/(categories|store\/orders|pets\/[^/]+)$/.test(request.path);
}

/** A response header by case-insensitive name. */
export function headerOf(answer: Answer, name: string): string | null {
  const wanted = name.toLowerCase();
  for (const held in answer.headers) if (held.toLowerCase() === wanted) return answer.headers[held]!;
  return null;
}

/** A copy of the answer with its headers edited (through fetch's `Headers`, case-insensitive). */
export function withHeaders(answer: Answer, edit: (headers: Headers) => void): Answer {
  const headers = new Headers(answer.headers);
  edit(headers);
  return { ...answer, headers: Object.fromEntries(headers) };
}

/** A copy of an answer with its JSON body rewritten (and optionally its status). */
export function withJson(answer: Answer, edit: (json: unknown) => unknown, status = answer.status): Answer {
  if (answer.body === undefined) return { ...answer, status };
  return { ...answer, status, body: edit(JSON.parse(JSON.stringify(answer.body))) };
}

/** An answer whose body is text of another media type (a crash page, an HTML 404). */
export function textAnswer(status: number, text: string, contentType: string, headers: Record<string, string> = {}) {
  return { status, headers: { ...headers, 'Content-Type': contentType }, body: undefined, rawBody: text } as Answer;
}

/** The code of an answer's `Error` body, if it has one. */
export function codeOf(answer: Answer): unknown {
  return (answer.body as { code?: unknown } | undefined)?.code;
}

/**
 * A HEAD answered as its GET would be, from the fake's 405 (same guard headers), less the fields `drop`
 * names, on the paths `on` takes (the 405 lacks what an operation adds, such as `Deprecation`).
 */
export function headAsGet(drop: RegExp, on: (request: OverrideRequest) => boolean = onSpecPath) {
  return wrapping(async (request, next) => {
    const answer = await next();
    if (request.method !== 'HEAD' || !on(request) || answer.status !== 405) return answer;
    const kept = Object.entries(answer.headers).filter(([name]) => !/^allow$/i.test(name) && !drop.test(name));
    return {
      status: 200,
      headers: { ...Object.fromEntries(kept), 'Content-Type': 'application/json' },
      body: undefined,
      rawBody: '',
    };
  });
}
