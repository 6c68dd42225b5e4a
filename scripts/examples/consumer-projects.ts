import { cp, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { TARBALL } from './docs-projects.js';

/** A project of examples/: it installs the packed tarball and runs as a user runs it. */
export interface ConsumerProject {
  /** `examples/NAME`. */
  label: string;
  /** What it installs: package name -> version or range ({@link TARBALL} for the package itself). */
  dependencies: Map<string, string>;
  /** Run in order in its folder; it passes when each exits 0. */
  commands: string[];
  /** Writes its files (no node_modules) into `dir`. */
  writeTo(dir: string, tarballName: string): Promise<void>;
}

/** Every folder of `examples/` with a package.json (those named in `only`, when given): `npm test` runs it. */
export async function exampleProjects(root: string, only: readonly string[]): Promise<ConsumerProject[]> {
  const projects: ConsumerProject[] = [];
  for (const name of (await readdir(join(root, 'examples'))).sort()) {
    const label = `examples/${name}`;
    if (only.length > 0 && !only.includes(name) && !only.includes(label)) continue;
    const source = join(root, 'examples', name);
    const manifestPath = join(source, 'package.json');
    if (!(await stat(manifestPath).catch(() => undefined))?.isFile()) continue;
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    projects.push({
      label,
      dependencies: new Map([
        ...Object.entries({ ...manifest.dependencies, ...manifest.devDependencies }),
        ['petstore-harness', TARBALL],
      ]),
      commands: ['npm test'],
      writeTo: (dir) =>
        cp(source, dir, {
          recursive: true,
          // What a build or a run leaves behind in the source folder is not the project.
          filter: (path) => !/[\\/](node_modules|dist|storybook-static|test-results|playwright-report)$/.test(path),
        }),
    });
  }
  return projects;
}
