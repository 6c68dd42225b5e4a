import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import type { Check } from '../../contracts/checks/check.js';
import type { CheckFinding } from '../../contracts/runner/check-finding.js';
import type { CheckResult } from '../../contracts/runner/check-result.js';
import type { OperationModel } from '../../contracts/generate/operation-model.js';
import type { SeedData } from '../../mocks/domain/seed.js';
import type { Override } from '../../mocks/handlers/overrides.js';

// A user grows a copy of the spec by operations the suite has never seen and runs the suite from the copy
// (env PETSTORE_SPEC) against a service that implements them: the fake, with the operations added as
// overrides. Only this module's dynamic imports read the copy: everything that reads the spec is imported
// after PETSTORE_SPEC is set, and the variable is taken out again at once (jest gives each test file
// its own modules, but one process environment).

/**
 * The operations a copy of the spec is grown by, on `/categories/{categoryId}`. The fake implements the
 * delete and the read; the replace is in the document only (for tests of what the suite reads from it).
 */
export type Growth = 'delete' | 'read' | 'replace';

/** How the grown operations of the service under test behave: correctly, or broken in one way. */
export type GrownBehaviour = 'correct' | 'keyless-delete' | 'deleted-still-listed' | 'deleted-still-read';

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

const ID_PARAMETER = {
  name: 'categoryId',
  in: 'path',
  required: true,
  description: "The category's id, a positive integer.",
  schema: { $ref: '#/components/schemas/Id' },
};

/** The responses every operation on one category has besides its success, as the spec writes them. */
const ON_ONE_CATEGORY = {
  '400': { $ref: '#/components/responses/BadRequest' },
  '401': { $ref: '#/components/responses/Unauthorized' },
  '404': {
    description: 'No category has this id (`not_found`).',
    headers: RATE_LIMIT_HEADERS,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
  '429': { $ref: '#/components/responses/TooManyRequests' },
  '500': { $ref: '#/components/responses/InternalError' },
};

const GROWN_OPERATIONS: Record<Growth, object> = {
  delete: {
    operationId: 'deleteCategory',
    summary: 'Delete a category',
    description: 'Removes a category: it is no longer listed.',
    tags: ['categories'],
    parameters: [ID_PARAMETER],
    responses: { '204': { description: 'The category is deleted.', headers: RATE_LIMIT_HEADERS }, ...ON_ONE_CATEGORY },
  },
  replace: {
    operationId: 'replaceCategory',
    summary: 'Replace a category',
    tags: ['categories'],
    parameters: [ID_PARAMETER],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/NewCategory' } } },
    },
    responses: {
      '200': {
        description: 'The category as stored.',
        headers: RATE_LIMIT_HEADERS,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Category' } } },
      },
      ...ON_ONE_CATEGORY,
    },
  },
  read: {
    operationId: 'getCategory',
    summary: 'Find a category by id',
    tags: ['categories'],
    parameters: [ID_PARAMETER],
    responses: {
      '200': {
        description: 'The category.',
        headers: RATE_LIMIT_HEADERS,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Category' } } },
      },
      ...ON_ONE_CATEGORY,
    },
  },
};

const METHOD_OF: Record<Growth, string> = { delete: 'DELETE', read: 'GET', replace: 'PUT' };

/** spec/openapi.yaml grown by the operations, each written as the spec writes its own. */
function grownSpec(growth: readonly Growth[]): string {
  const document = parse(readFileSync(fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url)), 'utf8'));
  document.paths['/categories/{categoryId}'] = Object.fromEntries(
    growth.map((operation) => [METHOD_OF[operation].toLowerCase(), GROWN_OPERATIONS[operation]]),
  );
  return stringify(document);
}

/** A finding of a failed check, with the check's name. */
export type FoundBy = CheckFinding & { check: string };

/** The suite as read from a grown copy of the spec, and the service to run it against. */
export interface GrownSuite {
  checks: readonly Check[];
  operationModels(): OperationModel[];
  /** Every check against the fake with the grown operations, behaving as `behaviour` says. */
  runAgainst(behaviour: GrownBehaviour): Promise<CheckResult[]>;
  /**
   * `npm run contract` from the copy against that fake as a URL (keys: the fake's own): its exit code, what
   * it printed, and the ids of the categories it deleted.
   */
  contractCli(
    behaviour: GrownBehaviour,
    args: readonly string[],
  ): Promise<{ code: number; printed: string; deleted: number[] }>;
  /** Deletes the copy. */
  remove(): void;
}

const ITEM_PATH = /^\/categories\/([^/]+)$/;
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The suite's modules read from a copy of the spec grown by `growth`, and a runner against the fake
 * implementing the grown operations.
 * @example const grown = await grownSuite(['delete']); const results = await grown.runAgainst('correct');
 */
export async function grownSuite(growth: readonly Growth[]): Promise<GrownSuite> {
  const directory = mkdtempSync(join(tmpdir(), 'petstore-grown-spec-'));
  const specPath = join(directory, 'openapi.yaml');
  writeFileSync(specPath, grownSpec(growth));
  process.env.PETSTORE_SPEC = specPath;
  const { CHECKS } = await import('../../contracts/checks/registry.js');
  const { runChecks } = await import('../../contracts/runner/run-checks.js');
  const { suiteSettings } = await import('../../contracts/runner/suite-settings.js');
  const { startFakeTarget } = await import('../../contracts/targets/fake-target.js');
  const { operationModels } = await import('../../contracts/generate/operation-model.js');
  const { MemoryStore } = await import('../../mocks/stores/memory-store.js');
  const { override } = await import('../../mocks/handlers/typed-override.js');
  const { apiError } = await import('../../mocks/domain/errors.js');
  const { errorAnswer, jsonAnswer } = await import('../../mocks/handlers/api-call.js');
  const { lastPathSegment } = await import('../../mocks/handlers/route-pattern.js');
  const { normalizedPath } = await import('../../spec/path-normalization.js');
  const { runContractCli } = await import('../../contracts/cli/run-contract-cli.js');
  const { capturedIo } = await import('../../contracts/cli/captured-io.js');
  delete process.env.PETSTORE_SPEC;

  /** The memory store with the deletions beside it: a reset of the fake forgets them with the records. */
  class StoreWithDeletions extends MemoryStore {
    readonly deleted = new Set<number>();
    override reset(seed: SeedData): Promise<void> {
      this.deleted.clear();
      return super.reset(seed);
    }
  }

  const allowed = growth.map((operation) => METHOD_OF[operation]).join(', ');

  function fakeOptions(behaviour: GrownBehaviour, deleted: number[] = []) {
    let store: StoreWithDeletions | undefined;
    /** The category a path names, after the spec's order: a malformed id is a 400, an unknown one a 404. */
    const categoryOf = async (path: string, headers: Record<string, string>, deletedToo: boolean) => {
      const text = lastPathSegment(path) ?? '';
      const id = /^[0-9]{1,19}$/.test(text) ? BigInt(text) : 0n;
      if (id < 1n || id > INT64_MAX)
        return errorAnswer(apiError('invalid_request', 'categoryId: must be a positive integer'), headers);
      const categories = await store!.takeStep({ kind: 'listCategories' });
      const found = categories.find(
        (category) => BigInt(category.id) === id && (deletedToo || !store!.deleted.has(category.id)),
      );
      return found ?? errorAnswer(apiError('not_found', `No category has id ${text}.`), headers);
    };
    const deleteCategory = async (path: string, headers: Record<string, string>) => {
      const found = await categoryOf(path, headers, false);
      if ('status' in found) return found;
      if (behaviour !== 'deleted-still-listed') store!.deleted.add(found.id);
      deleted.push(found.id);
      return { status: 204, headers, body: undefined };
    };
    const routes: Override = override.all(async ({ request, headers, next }) => {
      // Percent-encoded unreserved characters are the characters themselves (`/c%61tegories/%31`).
      const path = normalizedPath(request.path);
      if (ITEM_PATH.test(path)) {
        if (request.method === 'DELETE' && growth.includes('delete')) return deleteCategory(path, headers);
        if (request.method === 'GET' && growth.includes('read')) {
          const found = await categoryOf(path, headers, behaviour === 'deleted-still-read');
          return 'status' in found ? found : jsonAnswer(found, 200, headers);
        }
        return errorAnswer(apiError('method_not_allowed', `${path} allows ${allowed} only.`), {
          ...headers,
          Allow: allowed,
        });
      }
      const answer = await next();
      if (request.method !== 'GET' || path !== '/categories' || answer.status !== 200) return answer;
      const listed = (answer.body as Array<{ id: number }>).filter((category) => !store!.deleted.has(category.id));
      return jsonAnswer(listed, 200, answer.headers);
    });
    // A broken service that deletes for anyone: the key is not asked for on this one operation.
    const keyless: Override = override.all(
      async ({ request, next }) => {
        const path = normalizedPath(request.path);
        if (request.method !== 'DELETE' || !ITEM_PATH.test(path) || request.header('authorization')) return next();
        return deleteCategory(path, {});
      },
      { beforeAuth: true },
    );
    return {
      store: (parts: ConstructorParameters<typeof MemoryStore>[0]) => (store = new StoreWithDeletions(parts)),
      overrides: behaviour === 'keyless-delete' ? [keyless, routes] : [routes],
    };
  }

  return {
    checks: CHECKS,
    operationModels,
    async runAgainst(behaviour) {
      const target = await startFakeTarget(fakeOptions(behaviour));
      try {
        return await runChecks(CHECKS, target.descriptor, { settings: suiteSettings({ live: false, seed: 1 }) });
      } finally {
        await target.close();
      }
    },
    async contractCli(behaviour, args) {
      const deleted: number[] = [];
      const target = await startFakeTarget(fakeOptions(behaviour, deleted));
      try {
        const { io, out, err } = capturedIo();
        const code = await runContractCli(['--target', target.descriptor.baseUrl, ...args], io);
        return { code, printed: [...out, ...err].join('\n'), deleted };
      } finally {
        await target.close();
      }
    },
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}

/** The failed checks of a run, each with what it failed on (for a readable difference). */
export function failuresOf(results: CheckResult[]) {
  return results
    .filter((result) => result.outcome === 'failed')
    .map(({ check, failure }) => ({ check, title: failure?.title, lines: failure?.lines.slice(0, 3) }));
}

/** Every finding of the failed checks of a run. */
export function findingsOf(results: CheckResult[]): FoundBy[] {
  return results
    .filter(({ outcome }) => outcome === 'failed')
    .flatMap(({ check, findings = [] }) => findings.map((finding) => ({ check, ...finding })));
}
