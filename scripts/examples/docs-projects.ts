import { posix } from 'node:path';
import { codeBlocks, type CodeBlock } from '../docs/markdown.js';
import { shellCommands } from '../docs/shell-commands.js';

// The docs' guides as steps a newcomer follows. A fenced block is a step of a project when the line above
// it marks it (an HTML comment, so a reader sees only the block):
//   <!-- file: vitest-quick-start/src/categories.test.ts -->   write the block as that file of that project
//   <!-- run: vitest-quick-start -->                            an `sh` block: each command, run as typed
//   <!-- start: qa-quick-start -->                              an `sh` block of servers the page leaves running
//                                                               ("in a second terminal"): each command started,
//                                                               then waited for until its --port answers
// One mark may name several targets, space-separated: `<!-- file: storybook-guide/src/X.tsx examples/storybook-app/src/X.tsx -->`.
// A `file:` path under `examples/NAME/` names a file of that consumer project, which the docs test holds
// equal to the block. The follower (follow-guide.ts) performs a project's steps in the order the page
// gives them, in an empty folder with the packed tarball copied into it, so a step the page leaves out
// fails it; the last step is a command run to its end, the one that shows the guide working.

/**
 * One step of a guide: write a file, run a command to its end, or start a server the page leaves running
 * (listening on `port`, the `--port` its command names). `at` is `file:line` of its block.
 */
export type GuideStep =
  | { kind: 'file'; path: string; text: string; at: string }
  | { kind: 'run'; command: string; at: string }
  | { kind: 'start'; command: string; port: number; at: string };

/** A project written and run from the docs' own text. */
export interface DocsProject {
  name: string;
  /** The Markdown file of its first block: the guide it follows. */
  guide: string;
  /** Its steps, in the order the docs give them. */
  steps: GuideStep[];
  /** What its `npm install` lines install: package name -> version or range; the tarball as `TARBALL`. */
  dependencies: Map<string, string>;
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

const MARK = /^<!-- (file|run|start): (\S+(?: \S+)*) -->$/;

/** Thrown for a mark that does not make a project: says where and why. */
export class DocsProjectError extends Error {
  override readonly name = 'DocsProjectError';
}

/** The port a started server names (`--port N`): the follower waits until it answers there. */
function portOf(words: readonly string[], at: string): number {
  const port = Number(words[words.indexOf('--port') + 1]);
  if (!words.includes('--port') || !Number.isInteger(port) || port < 1 || port > 65_535)
    throw new DocsProjectError(
      `${at}: \`${words.join(' ')}\` is started in the background but names no --port (1-65535) to wait for`,
    );
  return port;
}

/** Splits `name@version` (scoped names too; a range may hold spaces); the package's tarball becomes {@link TARBALL}. */
function installSpec(word: string, tarball: string, at: string): [string, string] {
  if (word === tarball) return ['petstore-harness', TARBALL];
  const match = /^(@?[^@\s]+)@(.+)$/.exec(word);
  if (!match) throw new DocsProjectError(`${at}: \`${word}\` names no version; the docs pin what they install`);
  return [match[1]!, match[2]!];
}

/**
 * The projects the marked blocks of some Markdown files make, and the blocks that stand for files of
 * `examples/`. Throws {@link DocsProjectError} on a mark with no block under it, two blocks for one file,
 * a project that does not end with a command, or an install without a version.
 * @example docsProjects([{ file: 'README.md', text }], './petstore-harness-0.1.0.tgz')
 */
export function docsProjects(
  documents: ReadonlyArray<{ file: string; text: string }>,
  tarball: string,
): { projects: DocsProject[]; exampleFiles: ExampleFileBlock[] } {
  const projects = new Map<string, DocsProject & { paths: Set<string> }>();
  const exampleFiles: ExampleFileBlock[] = [];
  const projectNamed = (name: string, at: string) => {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(name))
      throw new DocsProjectError(`${at}: project name "${name}" is not lower-case words joined by hyphens`);
    if (!projects.has(name))
      projects.set(name, {
        name,
        guide: at.replace(/:\d+$/, ''),
        steps: [],
        dependencies: new Map(),
        sources: [],
        paths: new Set(),
      });
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
      const [, kind, targets] = mark as unknown as [string, 'file' | 'run' | 'start', string];
      for (const target of targets.split(' ')) {
        if (kind === 'file') addFile(target, block, at);
        else addCommands(target, block, at, kind);
      }
    }
  }

  function addFile(target: string, block: CodeBlock, at: string) {
    const [name, ...rest] = target.split('/');
    const path = posix.normalize(rest.join('/'));
    if (rest.length === 0 || path.startsWith('..'))
      throw new DocsProjectError(`${at}: "${target}" is not PROJECT/PATH inside the project`);
    if (name === 'examples') {
      const [example, ...inside] = rest;
      exampleFiles.push({ example: example!, path: inside.join('/'), text: block.text, at });
      return;
    }
    const project = projectNamed(name!, at);
    if (project.paths.has(path)) throw new DocsProjectError(`${at}: ${target} is given twice`);
    project.paths.add(path);
    project.steps.push({ kind: 'file', path, text: `${block.text}\n`, at });
    project.sources.push(at);
  }

  function addCommands(target: string, block: CodeBlock, at: string, kind: 'run' | 'start') {
    if (block.language !== 'sh') throw new DocsProjectError(`${at}: a ${kind} mark needs an sh block`);
    const project = projectNamed(target, at);
    project.sources.push(at);
    for (const command of shellCommands(block.text)) {
      const [tool, verb, ...rest] = command.words;
      if (kind === 'start') {
        project.steps.push({ kind, command: command.text, port: portOf(command.words, at), at });
        continue;
      }
      if (tool === 'npm' && (verb === 'install' || verb === 'i'))
        for (const word of rest.filter((each) => !each.startsWith('-'))) {
          const [name, spec] = installSpec(word, tarball, at);
          project.dependencies.set(name, spec);
        }
      project.steps.push({ kind, command: command.text, at });
    }
  }

  for (const project of projects.values()) {
    if (project.steps.at(-1)?.kind !== 'run')
      throw new DocsProjectError(
        `${project.sources[0]}: project ${project.name} does not end with a command that shows it working`,
      );
    if (project.dependencies.get('petstore-harness') !== TARBALL)
      throw new DocsProjectError(`${project.sources[0]}: project ${project.name} never installs ${tarball}`);
  }
  return {
    projects: [...projects.values()].map(({ paths: _paths, ...project }) => project),
    exampleFiles,
  };
}

/** A step as a message names it: `step 3 of 5 (docs/guides/x.md:40: \`npx vitest run\`)`. */
export function describeStep(project: DocsProject, index: number): string {
  const step = project.steps[index]!;
  const what =
    step.kind === 'file'
      ? `file ${step.path}`
      : step.kind === 'start'
        ? `started \`${step.command}\``
        : `\`${step.command}\``;
  return `step ${index + 1} of ${project.steps.length} (${step.at}: ${what})`;
}
