import { specDocument } from '../../spec/spec-artifacts.js';

type Paths = Record<string, Record<string, { operationId?: string; tags?: string[] }>>;

/** Every operation of the spec with its tags. */
function operationTags(): Map<string, string[]> {
  const paths = (specDocument() as unknown as { paths: Paths }).paths;
  const tags = new Map<string, string[]>();
  for (const methods of Object.values(paths))
    for (const operation of Object.values(methods))
      if (operation?.operationId) tags.set(operation.operationId, operation.tags ?? []);
  return tags;
}

/**
 * The operations `--operations` names: each item an operationId or a tag of the spec (all its
 * operations). Names that are neither come back as `unknown`, so a typo is bad usage, not an empty run.
 * @example operationsNamed(['categories', 'getPetById']) // { operations: Set { 'listCategories', 'createCategory', 'getPetById' }, unknown: [] }
 */
export function operationsNamed(names: readonly string[]): { operations: Set<string>; unknown: string[] } {
  const tags = operationTags();
  const operations = new Set<string>();
  const unknown: string[] = [];
  for (const name of names) {
    const tagged = [...tags].filter(([, of]) => of.includes(name)).map(([operationId]) => operationId);
    if (tags.has(name)) operations.add(name);
    else if (tagged.length > 0) for (const operationId of tagged) operations.add(operationId);
    else unknown.push(name);
  }
  return { operations, unknown };
}
