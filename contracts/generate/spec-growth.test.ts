import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import type { Override } from '../../mocks/handlers/overrides.js';
import type { SeedData } from '../../mocks/domain/seed.js';
import type { CheckResult } from '../runner/check-result.js';

// A user grows a copy of the spec by an operation the suite has never seen, `DELETE /categories/{categoryId}`,
// and runs the suite from the copy (env PETSTORE_SPEC) against a service that implements it: no suite code
// changes. The service is the fake with the delete added as an override; two broken deletes must be caught.

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/** The spec's document grown by `DELETE /categories/{categoryId}`, written as the spec writes its operations. */
function grownSpec(): string {
  const document = parse(readFileSync(fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url)), 'utf8'));
  document.paths['/categories/{categoryId}'] = {
    delete: {
      operationId: 'deleteCategory',
      summary: 'Delete a category',
      description: 'Removes a category: it is no longer listed.',
      tags: ['categories'],
      parameters: [
        {
          name: 'categoryId',
          in: 'path',
          required: true,
          description: "The category's id, a positive integer.",
          schema: { $ref: '#/components/schemas/Id' },
        },
      ],
      responses: {
        '204': { description: 'The category is deleted.', headers: RATE_LIMIT_HEADERS },
        '400': { $ref: '#/components/responses/BadRequest' },
        '401': { $ref: '#/components/responses/Unauthorized' },
        '404': {
          description: 'No category has this id (`not_found`).',
          headers: RATE_LIMIT_HEADERS,
          content: ERROR_CONTENT,
        },
        '429': { $ref: '#/components/responses/TooManyRequests' },
        '500': { $ref: '#/components/responses/InternalError' },
      },
    },
  };
  return stringify(document);
}

const directory = mkdtempSync(join(tmpdir(), 'petstore-grown-spec-'));
const grownSpecPath = join(directory, 'openapi.yaml');
writeFileSync(grownSpecPath, grownSpec());
// Read when spec/spec-artifacts.ts is first imported (below, after this line); taken out again at once,
// so that no other test file of this worker reads the copy.
process.env.PETSTORE_SPEC = grownSpecPath;
const { CHECKS } = await import('../checks/registry.js');
const { runChecks } = await import('../runner/run-checks.js');
const { suiteSettings } = await import('../runner/suite-settings.js');
const { startFakeTarget } = await import('../targets/fake-target.js');
const { MemoryStore } = await import('../../mocks/stores/memory-store.js');
const { override } = await import('../../mocks/handlers/typed-override.js');
const { apiError } = await import('../../mocks/domain/errors.js');
const { errorAnswer, jsonAnswer } = await import('../../mocks/handlers/api-call.js');
const { lastPathSegment } = await import('../../mocks/handlers/route-pattern.js');
const { operationModels } = await import('./operation-model.js');
delete process.env.PETSTORE_SPEC;

/** How a delete of the service under test behaves: correctly, or broken in one way. */
type DeleteBehaviour = 'correct' | 'keyless' | 'still-listed';

/** The memory store with the deletions beside it: a reset of the fake forgets them with the records. */
class StoreWithDeletions extends MemoryStore {
  readonly deleted = new Set<number>();
  override reset(seed: SeedData): Promise<void> {
    this.deleted.clear();
    return super.reset(seed);
  }
}

const ITEM_PATH = /^\/categories\/([^/]+)$/;
const INT64_MAX = 2n ** 63n - 1n;

/** The fake with `DELETE /categories/{categoryId}` added: after auth and quota, as the spec orders it. */
function deletingFake(behaviour: DeleteBehaviour) {
  let store: StoreWithDeletions | undefined;
  const deleteCategory = async (path: string, headers: Record<string, string>) => {
    const text = lastPathSegment(path) ?? '';
    const id = /^[0-9]{1,19}$/.test(text) ? BigInt(text) : 0n;
    if (id < 1n || id > INT64_MAX)
      return errorAnswer(apiError('invalid_request', 'categoryId: must be a positive integer'), headers);
    const categories = await store!.records.listCategories();
    const found = categories.find((category) => BigInt(category.id) === id && !store!.deleted.has(category.id));
    if (!found) return errorAnswer(apiError('not_found', `No category has id ${text}.`), headers);
    if (behaviour !== 'still-listed') store!.deleted.add(found.id);
    return { status: 204, headers, body: undefined };
  };
  const routes: Override = override.all(async ({ request, headers, next }) => {
    if (ITEM_PATH.test(request.path)) {
      if (request.method === 'DELETE') return deleteCategory(request.path, headers);
      return errorAnswer(apiError('method_not_allowed', `${request.path} allows DELETE only.`), {
        ...headers,
        Allow: 'DELETE',
      });
    }
    const answer = await next();
    if (request.method !== 'GET' || request.path !== '/categories' || answer.status !== 200) return answer;
    const listed = (answer.body as Array<{ id: number }>).filter((category) => !store!.deleted.has(category.id));
    return jsonAnswer(listed, 200, answer.headers);
  });
  // A broken service that deletes for anyone: the key is not asked for on this one operation.
  const keyless: Override = override.all(
    async ({ request, next }) => {
      if (request.method !== 'DELETE' || !ITEM_PATH.test(request.path) || request.header('authorization'))
        return next();
      return deleteCategory(request.path, {});
    },
    { beforeAuth: true },
  );
  return {
    store: (parts: ConstructorParameters<typeof MemoryStore>[0]) => (store = new StoreWithDeletions(parts)),
    overrides: behaviour === 'keyless' ? [keyless, routes] : [routes],
  };
}

async function suiteAgainst(behaviour: DeleteBehaviour, checks = CHECKS): Promise<CheckResult[]> {
  const target = await startFakeTarget(deletingFake(behaviour));
  try {
    return await runChecks(checks, target.descriptor, { settings: suiteSettings({ live: false, seed: 1 }) });
  } finally {
    await target.close();
  }
}

const failures = (results: CheckResult[]) =>
  results
    .filter((result) => result.outcome === 'failed')
    .map(({ check, failure }) => ({ check, title: failure?.title, lines: failure?.lines.slice(0, 3) }));

describe('the suite run from a copy of the spec grown by DELETE /categories/{categoryId}', () => {
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('reads the new operation as a delete of the categories listed by listCategories', () => {
    const deleteModel = operationModels().find(({ operation }) => operation.operationId === 'deleteCategory');
    expect(deleteModel).toMatchObject({ kind: 'delete', successStatus: 204 });
    expect(deleteModel?.listedBy?.operationId).toBe('listCategories');
  });

  describe('against a service that implements it', () => {
    let results: CheckResult[] = [];
    beforeAll(async () => {
      results = await suiteAgainst('correct');
    }, 300_000);

    it('passes every check: no new suite code', () => {
      expect(failures(results)).toEqual([]);
      expect(results.filter(({ outcome }) => outcome === 'passed').length).toBeGreaterThan(CHECKS.length / 2);
    });
  });

  it.each([
    [
      'keyless',
      'a delete without a key is admitted',
      'refused_never_admitted',
      'deleteCategory',
      'A request the spec refuses was answered 204',
    ],
    [
      'still-listed',
      'a delete answers 204 and leaves the category listed',
      'stored_as_sent',
      'listCategories',
      'A deleted record is still listed',
    ],
  ] as const)(
    'catches a delete that is %s (%s): a finding %s on %s',
    async (behaviour, _breaks, id, operation, title) => {
      const found = (await suiteAgainst(behaviour))
        .filter(({ outcome }) => outcome === 'failed')
        .flatMap(({ check, findings = [] }) => findings.map((finding) => ({ check, ...finding })));
      expect(found).toContainEqual(expect.objectContaining({ id, operation, title: expect.stringContaining(title) }));
    },
    300_000,
  );
});
