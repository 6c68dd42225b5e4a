import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { parseFaultRule } from '../../mocks/domain/faults.js';
import { startFakeServer, type RunningFakeServer } from '../../mocks/server/index.js';
import { documentationFiles, GENERATED_BLOCKS, blocksIn, staleFiles } from '../../scripts/docs/generated-blocks.js';
import { brokenLinks, codeBlocks, type CodeBlock } from '../../scripts/docs/markdown.js';
import { commandProblem, shellCommands } from '../../scripts/docs/shell-commands.js';
import { docsProjects } from '../../scripts/examples/docs-projects.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const files = documentationFiles(ROOT);
const blocks = files.flatMap((file) => codeBlocks(readFileSync(join(ROOT, file), 'utf8'), file));
const where = (block: CodeBlock) => `${block.file}:${block.line}`;
const documents = files.map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));
const { projects, exampleFiles } = docsProjects(documents, './petstore-harness-0.1.0.tgz');
// Blocks that are files of a project `npm run examples` runs (built from the docs, or of examples/).
const projectFileAt = new Set([...projects.flatMap((project) => project.sources), ...exampleFiles.map(({ at }) => at)]);
const isProjectFile = (block: CodeBlock) => projectFileAt.has(`${block.file}:${block.line - 1}`);
// Every guide a newcomer follows from its own text (issues 47, 52): `npm run examples` follows each.
const GUIDE_PROJECTS = [
  'vitest-quick-start',
  'browser-quick-start',
  'qa-quick-start',
  'ci-quick-start',
  'redis-quick-start',
  'ui-states-standalone',
  'vitest-guide',
  'jest-guide',
  'ui-states-guide',
  'overrides-guide',
  'browser-guide',
  'storybook-guide',
  'playwright-guide',
];
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  scripts: Record<string, string>;
};
const TARBALL_INSTALL = new RegExp(`^npm (install|i) .*\\./${manifest.name}-${manifest.version}\\.tgz`);
// What a reader follows: the README's quick starts (each numbered item a part of its own) and the guides,
// but the one for working on this repository.
const QUICK_STARTS = /^## Quick starts$([^]*?)^## /m;
const readersPages = files.filter((file) => file.startsWith('docs/guides/') && !file.endsWith('/contributing.md'));

/** The commands of a page's `sh` blocks and of its workflows' `run:` steps, each with where and which part. */
function commandsOf(file: string): Array<{ at: string; part: string; words: string[]; text: string }> {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const offset = file === 'README.md' ? text.slice(0, text.search(QUICK_STARTS)).split('\n').length - 1 : 0;
  const lines = (file === 'README.md' ? (QUICK_STARTS.exec(text)?.[1] ?? '') : text).split('\n');
  const partAt = (line: number) =>
    file === 'README.md'
      ? (lines
          .slice(0, line)
          .reverse()
          .find((each) => /^\*\*\d+\. /.test(each)) ?? '')
      : file;
  const runsOf = (value: unknown): string[] =>
    typeof value !== 'object' || value === null
      ? []
      : Object.entries(value).flatMap(([key, each]) =>
          key === 'run' && typeof each === 'string' ? [each] : runsOf(each),
        );
  return codeBlocks(lines.join('\n'), file).flatMap((block) => {
    const scripts =
      block.language === 'sh' ? [block.text] : block.language === 'yaml' ? runsOf(parseYaml(block.text)) : [];
    return scripts.flatMap((script) =>
      shellCommands(script).map(({ words, text: command }) => ({
        at: `${file}:${block.line + offset}`,
        part: partAt(block.line),
        words,
        text: command,
      })),
    );
  });
}

describe('the documentation (README.md and docs/)', () => {
  it('has every generated block as the code builds it now (npm run docs rewrites them)', () => {
    expect(staleFiles(ROOT)).toEqual([]);
    const used = files.flatMap((file) => blocksIn(readFileSync(join(ROOT, file), 'utf8')));
    expect([...new Set(used)].sort()).toEqual(Object.keys(GENERATED_BLOCKS).sort());
  });

  it('has every relative link and anchor resolving inside the repository', () => {
    expect(files.flatMap((file) => brokenLinks(ROOT, file))).toEqual([]);
  });

  it('refers to the design only through docs/explanation/design.md, in code, tests and docs alike', () => {
    const sources = (folder: string): string[] =>
      readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
        if (['node_modules', 'dist', '.git', 'reports', 'coverage'].includes(entry.name)) return [];
        const path = join(folder, entry.name);
        return entry.isDirectory()
          ? sources(path)
          : /\.(ts|mts|mjs|md|yaml|json)$/.test(entry.name) && entry.name !== 'package-lock.json'
            ? [path]
            : [];
      });
    const bare = sources('.').flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        // The design named bare (not as a path ending in it, nor as a relative link to the page beside it).
        .flatMap((line, index) => (/(?<![/\w]|\]\()design\.md/.test(line) ? [`${file}:${index + 1}`] : [])),
    );
    expect(bare).toEqual([]);
  });

  it('has a language on every code block, of a kind the tests below check', () => {
    expect(
      blocks.filter((block) => !['sh', 'ts', 'jsonc', 'yaml', 'text'].includes(block.language)).map(where),
    ).toEqual(
      // Other languages only as files of a project that runs (scripts/examples/docs-projects.ts).
      blocks
        .filter((block) => ['json', 'js', 'tsx', 'html'].includes(block.language) && isProjectFile(block))
        .map(where),
    );
  });

  it('has its projects (marked snippets) complete: each runs something and installs the tarball', () => {
    // docsProjects throws on a mark with no block, a file given twice, or a project that does not end with
    // a command; `npm run examples` follows each from its text in an empty folder (docs:NAME).
    expect(projects.map(({ name }) => name)).toEqual(expect.arrayContaining(GUIDE_PROJECTS));
    for (const project of projects)
      for (const step of project.steps)
        if (step.kind === 'file' && step.path.endsWith('.json')) expect(() => JSON.parse(step.text)).not.toThrow();
  });

  it('gives a reader only what the installed package provides: no script of this repository, no npx before the install', () => {
    // A reader's folder has none of this repository's npm scripts, and `npx petstore-contract` in a folder
    // that has not installed the package asks the registry for a package of that name (issue 52).
    const problems = ['README.md', ...readersPages].flatMap((file) => {
      const installedIn = new Set<string>();
      return commandsOf(file).flatMap(({ at, part, words: [tool, verb, script], text }) => {
        if (TARBALL_INSTALL.test(text)) installedIn.add(part);
        if (tool === 'npm' && (verb === 'start' || (verb === 'run' && script! in manifest.scripts)))
          return [`${at}: \`${text}\` is a script of this repository`];
        if (tool === 'npx' && verb?.startsWith('petstore-') && !installedIn.has(part))
          return [`${at}: \`${text}\` comes before the package is installed`];
        return [];
      });
    });
    expect(problems).toEqual([]);
  });

  it('follows every quick start as written: each of its sh blocks a step, but those that need staging itself', () => {
    const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const start = text.split('\n').findIndex((line) => line === '## Quick starts');
    const end = text.split('\n').findIndex((line, at) => at > start && line.startsWith('## '));
    const unfollowed = blocks
      .filter(({ file, line, language }) => file === 'README.md' && language === 'sh' && line > start && line < end)
      .filter((block) => !isProjectFile(block) && !block.text.includes('https://staging.api.petstore.example.com/v1'))
      .map(where);
    expect(unfollowed).toEqual([]);
  });

  it('says where a followed guide is followed as the follower lays it out: the tarball copied into the folder', () => {
    // "An empty folder beside the tarball" with `npm install ./petstore-harness-0.1.0.tgz` run inside it
    // cannot find the tarball; the follower copies it in (scripts/examples/follow-guide.ts).
    const saidBeside = documents
      .filter(({ text }) => /beside the\s+(packed\s+)?tarball/.test(text))
      .map(({ file }) => file);
    const followedPages = [...new Set(projects.map(({ guide }) => guide))];
    const notSaid = followedPages.filter(
      (page) => !/tarball\s+copied\s+into\s+it/.test(documents.find(({ file }) => file === page)!.text),
    );
    expect({ saidBeside, notSaid }).toEqual({ saidBeside: [], notSaid: [] });
  });

  it('shows the files of examples/ exactly as they are', () => {
    const differing = exampleFiles
      .filter(({ example, path, text }) => {
        const file = join(ROOT, 'examples', example, path);
        try {
          return readFileSync(file, 'utf8') !== `${text}\n`;
        } catch {
          return true;
        }
      })
      .map(({ at, example, path }) => `${at}: examples/${example}/${path}`);
    expect(differing).toEqual([]);
  });

  it('has every shell command as it works: npm scripts that exist, the real tarball, flags the bins accept', () => {
    const problems = blocks
      .filter((block) => block.language === 'sh')
      .flatMap((block) =>
        shellCommands(block.text).map((command) => ({
          at: where(block),
          command: command.text,
          problem: commandProblem(ROOT, command),
        })),
      )
      .filter(({ problem }) => problem !== undefined);
    expect(problems).toEqual([]);
  });

  it('has every fault rule written as JSON a fake accepts, and every YAML parsing', () => {
    for (const block of blocks.filter((each) => each.language === 'jsonc')) {
      const rule = JSON.parse(block.text.replace(/\/\/.*$/gm, '')) as unknown;
      expect(() => parseFaultRule(rule as never, where(block), 'rule')).not.toThrow();
    }
    for (const block of blocks.filter((each) => each.language === 'yaml'))
      expect(() => parseYaml(block.text)).not.toThrow();
  });

  describe('curl commands against the standalone fake', () => {
    let fake: RunningFakeServer;
    beforeAll(async () => {
      fake = await startFakeServer({ port: 0 });
    });
    afterAll(() => fake.close());

    it('are answered (no 5xx but the 503s the commands ask for), in the order the docs give them', async () => {
      const port = new URL(fake.baseUrl).port;
      const curls = blocks
        .filter((block) => block.language === 'sh')
        .flatMap((block) => shellCommands(block.text).map((command) => ({ at: where(block), command })))
        .filter(({ command }) => command.words[0] === 'curl' && command.text.includes('127.0.0.1:4010'));
      expect(curls.length).toBeGreaterThan(5);
      for (const { at, command } of curls) {
        // What a pipe hands the answer to (`| grep hamster`) is not curl's.
        const words = command.words.includes('|') ? command.words.slice(0, command.words.indexOf('|')) : command.words;
        const args = words.slice(1).map((word) => word.replace('127.0.0.1:4010', `127.0.0.1:${port}`));
        const { stdout } = await run('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code}', ...args]);
        const status = Number(stdout);
        const asked503 = command.text.includes('code=503');
        expect({
          at,
          command: command.text,
          ok: status >= 200 && (status < 500 || (asked503 && status === 503)),
        }).toEqual({ at, command: command.text, ok: true });
      }
      await fake.fake.reset();
    });
  });

  it('has every TypeScript snippet as a file of a project that runs (none is only compiled)', () => {
    // A snippet compiled against stand-in globals once hid that the quick start failed as copied
    // (`beforeAll is not defined`): every TypeScript block is now a file of a project that
    // `npm run examples` installs from the tarball and runs, or a file of examples/ held equal above.
    expect(blocks.filter((block) => block.language === 'ts' && !isProjectFile(block)).map(where)).toEqual([]);
  });

  it('builds the API reference of every public entry with TypeDoc, every warning an error (an undocumented export fails)', async () => {
    const out = join(ROOT, 'test/docs/.api');
    try {
      const result = await run(process.execPath, [join(ROOT, 'node_modules/typedoc/bin/typedoc'), '--out', out], {
        cwd: ROOT,
      }).then(
        ({ stdout, stderr }) => ({ code: 0, output: `${stdout}${stderr}` }),
        (error: { code: number; stdout: string; stderr: string }) => ({
          code: error.code,
          output: `${error.stdout}${error.stderr}`,
        }),
      );
      expect(result).toEqual({ code: 0, output: expect.not.stringMatching(/\[warning\]|\[error\]/) });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
