import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CommanderError, type Command } from 'commander';
import { contractProgram } from '../../contracts/cli/cli-options.js';
import { watchProgram } from '../../contracts/cli/watch-cli.js';
import { replayProgram } from '../../contracts/cli/replay-cli.js';
import { fakeServerCommand } from '../../mocks/server/cli-options.js';

/** One command of a `sh` block: continuation lines joined, the comment and leading `VAR=value`s dropped. */
export interface ShellCommand {
  words: string[];
  text: string;
}

/** Splits a line into words the way a shell would for these docs: quotes kept together, `$VAR` as written. */
function wordsOf(line: string): string[] {
  return [...line.matchAll(/'[^']*'|"(?:[^"\\]|\\.)*"|\S+/g)].map((match) =>
    match[0].replace(/^(['"])([\s\S]*)\1$/, '$2'),
  );
}

/** The commands of a `sh` block. */
export function shellCommands(block: string): ShellCommand[] {
  const joined = block.replace(/\\\n\s*/g, ' ');
  const commands: ShellCommand[] = [];
  for (const raw of joined.split('\n')) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line === '') continue;
    for (const part of line.split(/\s*&&\s*/)) {
      const words = wordsOf(part);
      while (words.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(words[0]!)) words.shift();
      if (words.length > 0) commands.push({ words, text: part });
    }
  }
  return commands;
}

function parses(program: Command, args: string[]): string | undefined {
  program
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined, outputError: () => undefined });
  try {
    program.parse(args, { from: 'user' });
    return undefined;
  } catch (error) {
    if (
      error instanceof CommanderError &&
      (error.code === 'commander.helpDisplayed' || error.code === 'commander.help')
    )
      return undefined;
    return (error as Error).message;
  }
}

function contractArgsProblem(args: string[]): string | undefined {
  if (args[0] === 'watch') return parses(watchProgram('petstore-contract'), args.slice(1));
  if (args[0] === 'replay') return parses(replayProgram('petstore-contract'), args.slice(1));
  return parses(contractProgram('petstore-contract'), args);
}

interface Manifest {
  name: string;
  version: string;
  scripts: Record<string, string>;
}
const manifests = new Map<string, Manifest>();
// Read once per repository: every command of every block is checked against the same package.json.
function manifestOf(root: string): Manifest {
  if (!manifests.has(root))
    manifests.set(root, JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest);
  return manifests.get(root)!;
}

const afterDashes = (words: string[]) => (words.includes('--') ? words.slice(words.indexOf('--') + 1) : []);

// Commands of other tools the docs show as they are; a command of none of these kinds fails the test,
// so a new kind of command in the docs is either checked here or named as another tool's.
const OTHER_TOOLS = new Set(['curl', 'apt-get', 'export', 'kill', 'wait', 'mkdir']);
const CONSUMER_TOOLS = new Set(['vitest', 'playwright', 'storybook', 'vite']);

/**
 * Why a documented command would not work as written, or undefined: npm scripts that exist, the
 * package's tarball by its real name, and every flag of `npm start`, `npm run contract`,
 * `petstore-fake` and `petstore-contract` parsed by the bin's own definitions.
 */
export function commandProblem(root: string, command: ShellCommand): string | undefined {
  const { words } = command;
  const manifest = manifestOf(root);
  const tarball = `./${manifest.name}-${manifest.version}.tgz`;
  const [tool, verb, ...rest] = words;
  if (tool === 'npm') {
    if (verb === 'install' || verb === 'i') {
      const local = rest.filter((word) => word.endsWith('.tgz'));
      return local.every((word) => word === tarball)
        ? undefined
        : `the package's tarball is ${tarball}, not ${local.join(', ')}`;
    }
    if (verb === 'ci' || verb === 'pack' || verb === 'test') return undefined;
    if (verb === 'start') return parses(fakeServerCommand(), afterDashes(words));
    if (verb === 'run') {
      const script = rest[0];
      if (!script || !(script in manifest.scripts)) return `package.json has no script "${script}"`;
      if (script === 'contract') return contractArgsProblem(afterDashes(words));
      return undefined;
    }
    return `npm ${verb}: not a command these docs use`;
  }
  if (tool === 'npx') {
    const args = words.slice(2);
    if (verb === 'petstore-fake') return parses(fakeServerCommand(), args);
    if (verb === 'petstore-contract') return contractArgsProblem(args);
    if (verb === 'msw') return rest[0] === 'init' ? undefined : `npx msw ${rest[0]}: not a command these docs use`;
    // The test tools the guides install beside the package; `npm run examples` runs these commands.
    if (verb !== undefined && CONSUMER_TOOLS.has(verb)) return undefined;
    return `npx ${verb}: not a bin of this package or its peers`;
  }
  if (tool === 'node') {
    const script = words.slice(1).find((word) => !word.startsWith('-') && word !== 'tsx');
    return script && existsSync(join(root, script)) ? undefined : `node: no script ${script} in the repository`;
  }
  return OTHER_TOOLS.has(tool!) ? undefined : `${tool}: not a command these docs know how to check`;
}
