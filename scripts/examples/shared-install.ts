import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import semver from 'semver';
import { TARBALL } from './docs-projects.js';
import type { ConsumerProject } from './consumer-projects.js';

// One `npm install` for every consumer project: each pins the same tools (Vitest, Jest, Vite, Storybook,
// Playwright), so installing them once into a shared folder, with each project's node_modules a link to
// it, is what each project would have installed, in a fraction of the time. A project that asks for
// another version of a tool than the others stops the run here, naming both, rather than running against
// a version it did not ask for.

/** Thrown when two projects ask for versions of one package that no one version satisfies. */
export class DependencyConflictError extends Error {
  override readonly name = 'DependencyConflictError';
}

/**
 * One spec per package that satisfies every project: the one they share, or the exact version that
 * satisfies every other's range.
 * @example mergedDependencies(projects) // { vitest: '4.1.12', msw: '2.15.0', 'petstore-harness': 'TARBALL' }
 */
export function mergedDependencies(projects: readonly ConsumerProject[]): Record<string, string> {
  const wanted = new Map<string, Array<{ spec: string; by: string }>>();
  for (const project of projects)
    for (const [name, spec] of project.dependencies)
      wanted.set(name, [...(wanted.get(name) ?? []), { spec, by: project.label }]);
  const merged: Record<string, string> = {};
  for (const [name, asks] of [...wanted].sort(([a], [b]) => a.localeCompare(b))) {
    const specs = [...new Set(asks.map(({ spec }) => spec))];
    const chosen =
      specs.length === 1
        ? specs[0]
        : specs.find((spec) => semver.valid(spec) && specs.every((other) => semver.satisfies(spec, other)));
    if (chosen === undefined)
      throw new DependencyConflictError(
        `${name}: ${asks.map(({ spec, by }) => `${by} wants ${spec}`).join(', ')}; pin one version in every project`,
      );
    merged[name] = chosen;
  }
  return merged;
}

/** Installs the merged dependencies (the package from `tarball`) into `dir`; resolves to its node_modules. */
export async function installShared(
  dir: string,
  dependencies: Record<string, string>,
  tarball: string,
  npm: (args: string[], cwd: string) => Promise<unknown>,
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const devDependencies = Object.fromEntries(
    Object.entries(dependencies).map(([name, spec]) => [name, spec === TARBALL ? `file:${tarball}` : spec]),
  );
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'petstore-consumer-projects', private: true, devDependencies }, null, 2)}\n`,
  );
  await npm(['install', '--no-audit', '--no-fund'], dir);
  return join(dir, 'node_modules');
}

/** Gives a project folder the shared install as its own node_modules. */
export function linkInstall(projectDir: string, nodeModules: string): Promise<void> {
  return symlink(nodeModules, join(projectDir, 'node_modules'), 'dir');
}
