// The projects the docs' marked snippets make (scripts/examples/docs-projects.ts), and the runner that
// `npm run examples` runs them with: a snippet broken on purpose makes its project fail, with its output.
import { describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { docsConsumerProject } from '../../scripts/examples/consumer-projects.js';
import { docsProjects, DocsProjectError, TARBALL } from '../../scripts/examples/docs-projects.js';
import { runProject } from '../../scripts/examples/run-project.js';
import { DependencyConflictError, mergedDependencies } from '../../scripts/examples/shared-install.js';

const TGZ = './petstore-harness-0.1.0.tgz';
const fence = '```';

/** A guide with one project: an install, a file that checks a sum, and the command that runs it. */
function guide(sum: string): string {
  return [
    '# A guide',
    '',
    '<!-- run: sums -->',
    `${fence}sh`,
    `npm install --save-dev vitest@4.1.12 msw@^2.15.0 ${TGZ}`,
    `${fence}`,
    '',
    'The file, `check.mjs`:',
    '',
    '<!-- file: sums/check.mjs -->',
    `${fence}ts`,
    "import assert from 'node:assert/strict';",
    `assert.equal(${sum}, 4, 'the sum in the docs');`,
    "console.log('checked');",
    `${fence}`,
    '',
    '<!-- run: sums -->',
    `${fence}sh`,
    'node check.mjs   # prints "checked"',
    `${fence}`,
  ].join('\n');
}

async function runFromDocs(text: string) {
  const [project] = docsProjects([{ file: 'guide.md', text }], TGZ).projects;
  const dir = await mkdtemp(join(tmpdir(), 'docs-project-'));
  try {
    await docsConsumerProject(project!).writeTo(dir, 'petstore-harness-0.1.0.tgz');
    return await runProject(project!.commands, dir, process.env);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('projects from the docs', () => {
  it('reads the files, the installs and the commands of a project from its marked blocks', () => {
    const { projects } = docsProjects([{ file: 'guide.md', text: guide('2 + 2') }], TGZ);
    expect(projects).toEqual([
      {
        name: 'sums',
        files: new Map([['check.mjs', expect.stringContaining('assert.equal(2 + 2, 4')]]),
        dependencies: new Map([
          ['vitest', '4.1.12'],
          ['msw', '^2.15.0'],
          ['petstore-harness', TARBALL],
        ]),
        commands: ['node check.mjs'],
        sources: ['guide.md:3', 'guide.md:10', 'guide.md:17'],
      },
    ]);
  });

  it('runs a project as written, and fails it when a snippet is broken, with what it printed', async () => {
    expect(await runFromDocs(guide('2 + 2'))).toEqual({ output: expect.stringContaining('checked') });
    const broken = await runFromDocs(guide('2 + 3'));
    expect(broken.problem).toContain('`node check.mjs` failed');
    expect(broken.problem).toContain('the sum in the docs');
  }, 30_000);

  it.each([
    ['a mark with no block under it', '<!-- file: sums/a.ts -->\n\ntext', /is not followed by a code block/],
    ['a file outside its project', `<!-- file: sums/../a.ts -->\n${fence}ts\nx\n${fence}`, /inside the project/],
    ['a project that runs nothing', `<!-- file: sums/a.ts -->\n${fence}ts\nx\n${fence}`, /has no run block/],
    [
      'an install without a version',
      `<!-- run: sums -->\n${fence}sh\nnpm install vitest ${TGZ}\nnpx vitest run\n${fence}`,
      /`vitest` names no version/,
    ],
    [
      'a project that never installs the package',
      `<!-- run: sums -->\n${fence}sh\nnpm install vitest@4.1.12\nnpx vitest run\n${fence}`,
      /never installs/,
    ],
    [
      'one file given twice',
      `${guide('2 + 2')}\n<!-- file: sums/check.mjs -->\n${fence}ts\nx\n${fence}`,
      /check.mjs is given twice/,
    ],
  ])('refuses %s, naming where', (_what, text, message) => {
    const refusal = (() => {
      try {
        docsProjects([{ file: 'guide.md', text }], TGZ);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(DocsProjectError);
    expect((refusal as Error).message).toMatch(/^guide\.md:\d+: /);
    expect((refusal as Error).message).toMatch(message);
  });

  it('installs one version for every project, and stops on two that no version satisfies', () => {
    const project = (label: string, dependencies: Record<string, string>) => ({
      label,
      dependencies: new Map(Object.entries(dependencies)),
      commands: [],
      writeTo: async () => undefined,
    });
    expect(
      mergedDependencies([project('a', { msw: '2.15.0', vitest: '4.1.12' }), project('b', { msw: '^2.15.0' })]),
    ).toEqual({ msw: '2.15.0', vitest: '4.1.12' });
    expect(() =>
      mergedDependencies([project('examples/a', { vite: '8.3.8' }), project('docs:b', { vite: '7.1.0' })]),
    ).toThrow(
      new DependencyConflictError('vite: examples/a wants 8.3.8, docs:b wants 7.1.0; pin one version in every project'),
    );
  });
});
