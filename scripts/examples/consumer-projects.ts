import { cp, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { TARBALL, type DocsProject } from './docs-projects.js';

/** A project that installs the packed tarball and runs as a user runs it: a folder of examples/ or docs text. */
export interface ConsumerProject {
  /** `examples/NAME` or `docs:NAME`. */
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

/** A project written from the docs' blocks; its package.json is the docs' own, or what `npm init -y` makes. */
export function docsConsumerProject(project: DocsProject): ConsumerProject {
  return {
    label: `docs:${project.name}`,
    dependencies: project.dependencies,
    commands: project.commands,
    async writeTo(dir, tarballName) {
      for (const [path, text] of project.files) {
        await mkdir(dirname(join(dir, path)), { recursive: true });
        await writeFile(join(dir, path), text);
      }
      const given = project.files.get('package.json');
      const manifest = given
        ? (JSON.parse(given) as Record<string, unknown>)
        : { name: project.name, version: '1.0.0', private: true };
      // What the docs' `npm install --save-dev` lines would have written.
      manifest.devDependencies = Object.fromEntries(
        [...project.dependencies].map(([name, spec]) => [name, spec === TARBALL ? `file:${tarballName}` : spec]),
      );
      await writeFile(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    },
  };
}
