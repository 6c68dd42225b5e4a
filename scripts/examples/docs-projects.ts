import { posix } from 'node:path';
import { codeBlocks, type CodeBlock } from '../docs/markdown.js';
import { shellCommands } from '../docs/shell-commands.js';

// The docs' snippets as projects a user would make of them. A fenced block is part of a project when the
// line above it marks it (an HTML comment, so a reader sees only the block):
//   <!-- file: vitest-quick-start/src/categories.test.ts -->   the block is that file of that project
//   <!-- run: vitest-quick-start -->                            an `sh` block: what a user types in it
// A `run` block's `npm install` lines say what the project installs (the package's tarball included); its
// other commands run in order in the project's folder, and the project passes when each exits 0.
// A `file:` path under `examples/NAME/` names a file of that consumer project instead, which the docs test
// holds equal to the block; `npm run examples` runs that project as it does every other.

/** A project written from the docs' own text. */
export interface DocsProject {
  name: string;
  /** Path inside the project -> the block's text, with a final newline. */
  files: Map<string, string>;
  /** What the `npm install` lines install: package name -> version or range; the tarball as `TARBALL`. */
  dependencies: Map<string, string>;
  /** The other commands of the `run` blocks, in order. */
  commands: string[];
  /** Where its blocks are, `file:line`, for messages. */
  sources: string[];
}

/** A block that stands for a file of a project of `examples/`. */
export interface ExampleFileBlock {
  example: string;
  path: string;
  text: string;
  at: string;
}

/** The spec the projects' installs give for the package itself. */
export const TARBALL = 'TARBALL';

const MARK = /^<!-- (file|run): (\S+) -->$/;

/** Thrown for a mark that does not make a project: says where and why. */
export class DocsProjectError extends Error {
  override readonly name = 'DocsProjectError';
}

/** Splits `name@version` (scoped names too); the package's tarball becomes {@link TARBALL}. */
function installSpec(word: string, tarball: string, at: string): [string, string] {
  if (word === tarball) return ['petstore-harness', TARBALL];
  const match = /^(@?[^@\s]+)@(\S+)$/.exec(word);
  if (!match) throw new DocsProjectError(`${at}: \`${word}\` names no version; the docs pin what they install`);
  return [match[1]!, match[2]!];
}

/**
 * The projects the marked blocks of some Markdown files make, and the blocks that stand for files of
 * `examples/`. Throws {@link DocsProjectError} on a mark with no block under it, two blocks for one file,
 * a project that nothing runs, or an install without a version.
 * @example docsProjects([{ file: 'README.md', text }], './petstore-harness-0.1.0.tgz')
 */
export function docsProjects(
  documents: ReadonlyArray<{ file: string; text: string }>,
  tarball: string,
): { projects: DocsProject[]; exampleFiles: ExampleFileBlock[] } {
  const projects = new Map<string, DocsProject>();
  const exampleFiles: ExampleFileBlock[] = [];
  const projectNamed = (name: string, at: string) => {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(name))
      throw new DocsProjectError(`${at}: project name "${name}" is not lower-case words joined by hyphens`);
    if (!projects.has(name))
      projects.set(name, { name, files: new Map(), dependencies: new Map(), commands: [], sources: [] });
    return projects.get(name)!;
  };
  for (const { file, text } of documents) {
    const lines = text.split('\n');
    const blocks = new Map<number, CodeBlock>(codeBlocks(text, file).map((block) => [block.line, block]));
    for (const [index, line] of lines.entries()) {
      const mark = MARK.exec(line.trim());
      if (!mark) continue;
      const at = `${file}:${index + 1}`;
      const block = blocks.get(index + 2);
      if (!block) throw new DocsProjectError(`${at}: "${line.trim()}" is not followed by a code block`);
      const [, kind, target] = mark as unknown as [string, 'file' | 'run', string];
      if (kind === 'file') {
        const [name, ...rest] = target.split('/');
        const path = posix.normalize(rest.join('/'));
        if (rest.length === 0 || path.startsWith('..'))
          throw new DocsProjectError(`${at}: "${target}" is not PROJECT/PATH inside the project`);
        if (name === 'examples') {
          const [example, ...inside] = rest;
          exampleFiles.push({ example: example!, path: inside.join('/'), text: block.text, at });
          continue;
        }
        const project = projectNamed(name!, at);
        if (project.files.has(path)) throw new DocsProjectError(`${at}: ${target} is given twice`);
        project.files.set(path, `${block.text}\n`);
        project.sources.push(at);
      } else {
        if (block.language !== 'sh') throw new DocsProjectError(`${at}: a run mark needs an sh block`);
        const project = projectNamed(target, at);
        project.sources.push(at);
        for (const command of shellCommands(block.text)) {
          const [tool, verb, ...rest] = command.words;
          if (tool === 'npm' && (verb === 'install' || verb === 'i')) {
            for (const word of rest.filter((each) => !each.startsWith('-'))) {
              const [name, spec] = installSpec(word, tarball, at);
              project.dependencies.set(name, spec);
            }
          } else project.commands.push(command.text);
        }
      }
    }
  }
  for (const project of projects.values()) {
    if (project.commands.length === 0)
      throw new DocsProjectError(`${project.sources[0]}: project ${project.name} has no run block with a command`);
    if (project.dependencies.get('petstore-harness') !== TARBALL)
      throw new DocsProjectError(`${project.sources[0]}: project ${project.name} never installs ${tarball}`);
  }
  return { projects: [...projects.values()], exampleFiles };
}
