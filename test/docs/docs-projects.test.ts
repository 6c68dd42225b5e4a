// The guides as steps (scripts/examples/docs-projects.ts) and the follower `npm run examples` runs them
// with (scripts/examples/follow-guide.ts): a guide followed as written passes; the same guide with one step
// removed on purpose (its install, or one of its files) fails, and the failure names the guide and the step.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { docsProjects, DocsProjectError, TARBALL, type DocsProject } from '../../scripts/examples/docs-projects.js';
import { followGuide, type FollowOptions } from '../../scripts/examples/follow-guide.js';
import { newcomerEnv } from '../../scripts/examples/node-legs.js';
import { ownLoopback } from '../../scripts/examples/own-loopback.js';
import { DependencyConflictError, mergedDependencies } from '../../scripts/examples/shared-install.js';

const TGZ = './petstore-harness-0.1.0.tgz';
const fence = '```';
const run = promisify(execFile);
const env = newcomerEnv(dirname(process.execPath));

/** A guide: install the package, write a file that uses it, run the file. */
function guide(sum: string): string {
  return [
    '# A guide',
    '',
    '<!-- run: sums -->',
    `${fence}sh`,
    `npm install --save-dev ${TGZ}`,
    `${fence}`,
    '',
    'The file, `check.mjs`:',
    '',
    '<!-- file: sums/check.mjs -->',
    `${fence}js`,
    "import assert from 'node:assert/strict';",
    "import { four } from 'petstore-harness';",
    `assert.equal(${sum}, four, 'the sum in the docs');`,
    "console.log('checked');",
    `${fence}`,
    '',
    '<!-- run: sums -->',
    `${fence}sh`,
    'node check.mjs   # prints "checked"',
    `${fence}`,
  ].join('\n');
}

/** A guide that leaves a server running on `port` (the file it writes), then asks it from the first terminal. */
function serverGuide(port: number, serverFile = 'server.mjs'): string {
  return [
    '<!-- run: pings -->',
    `${fence}sh`,
    `npm install --save-dev ${TGZ}`,
    `${fence}`,
    '<!-- file: pings/server.mjs -->',
    `${fence}js`,
    "import { createServer } from 'node:http';",
    "const port = Number(process.argv[process.argv.indexOf('--port') + 1]);",
    "createServer((_request, response) => response.end('pong')).listen(port, '127.0.0.1');",
    `${fence}`,
    '<!-- start: pings -->',
    `${fence}sh`,
    `node ${serverFile} --port ${port}   # in a second terminal`,
    `${fence}`,
    '<!-- run: pings -->',
    `${fence}sh`,
    `node -e "fetch('http://127.0.0.1:${port}/').then((r) => r.text()).then(console.log)"`,
    `${fence}`,
  ].join('\n');
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const refusesConnections = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(!socket.destroy()));
    socket.once('error', () => resolve(true));
  });

// A network namespace needs root and iproute2; where there is none, the follower uses the machine's loopback.
const namespaces = spawnSync('unshare', ['--net', 'ip', 'link', 'set', 'lo', 'up']).status === 0;

const projectOf = (text: string) => docsProjects([{ file: 'guide.md', text }], TGZ).projects[0]!;
const without = (project: DocsProject, index: number): DocsProject => ({
  ...project,
  steps: project.steps.filter((_step, at) => at !== index),
});

describe('guides as steps, and the follower', () => {
  // A stand-in for the packed package (npm pack of a package called petstore-harness): installing it
  // needs no registry, so the follower's own `npm install` runs here in a second.
  let work: string;
  let tarball: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'follow-guide-'));
    const source = join(work, 'package');
    await mkdir(source);
    await writeFile(
      join(source, 'package.json'),
      JSON.stringify({ name: 'petstore-harness', version: '0.1.0', type: 'module', main: 'index.js' }),
    );
    await writeFile(join(source, 'index.js'), 'export const four = 4;\n');
    await run('npm', ['pack', '--pack-destination', work], { cwd: source, env });
    tarball = join(work, 'petstore-harness-0.1.0.tgz');
  }, 60_000);
  afterAll(() => rm(work, { recursive: true, force: true }));
  const follow = (project: DocsProject, name: string, options?: FollowOptions) =>
    followGuide(project, join(work, name), tarball, env, options);

  it('reads a guide into its steps, in the order the page gives them', () => {
    expect(projectOf(guide('2 + 2'))).toEqual({
      name: 'sums',
      guide: 'guide.md',
      steps: [
        { kind: 'run', command: `npm install --save-dev ${TGZ}`, at: 'guide.md:3' },
        { kind: 'file', path: 'check.mjs', text: expect.stringContaining('assert.equal(2 + 2'), at: 'guide.md:10' },
        { kind: 'run', command: 'node check.mjs', at: 'guide.md:18' },
      ],
      dependencies: new Map([['petstore-harness', TARBALL]]),
      sources: ['guide.md:3', 'guide.md:10', 'guide.md:18'],
    });
  });

  it('passes a guide followed as written, in an empty folder with the tarball copied into it', async () => {
    expect(await follow(projectOf(guide('2 + 2')), 'as-written')).toEqual({
      output: expect.stringContaining('checked'),
    });
  }, 60_000);

  it.each([
    ['its install line', 0, /Cannot find package 'petstore-harness'/],
    ['its file', 1, /Cannot find module .*check\.mjs/],
  ])(
    'fails the guide with %s removed, naming the guide and the step that failed',
    async (_what, index, said) => {
      const followed = await follow(without(projectOf(guide('2 + 2')), index), `without-${index}`);
      expect(followed.problem?.split('\n')[0]).toBe(
        'guide.md (sums): step 2 of 2 (guide.md:18: `node check.mjs`) failed:',
      );
      expect(followed.problem).toMatch(said);
    },
    60_000,
  );

  it('fails a guide whose snippet is wrong, with what it printed', async () => {
    const followed = await follow(projectOf(guide('2 + 3')), 'wrong');
    expect(followed.problem).toContain('step 3 of 3 (guide.md:18: `node check.mjs`) failed');
    expect(followed.problem).toContain('the sum in the docs');
  }, 60_000);

  it('reads a server the page leaves running as a step started on its --port, and refuses one with no port', () => {
    expect(projectOf(serverGuide(4010)).steps[2]).toEqual({
      kind: 'start',
      command: 'node server.mjs --port 4010',
      port: 4010,
      at: 'guide.md:11',
    });
    const noPort = `<!-- start: pings -->\n${fence}sh\nnpx petstore-fake\n${fence}`;
    expect(() => docsProjects([{ file: 'guide.md', text: noPort }], TGZ)).toThrow(
      new DocsProjectError(
        'guide.md:1: `npx petstore-fake` is started in the background but names no --port (1-65535) to wait for',
      ),
    );
  });

  it('starts a server the page leaves running, runs the next step against it, and stops it at the end', async () => {
    const port = await freePort();
    const followed = await follow(projectOf(serverGuide(port)), 'server');
    expect(followed).toEqual({ output: expect.stringContaining('pong') });
    expect(await refusesConnections(port)).toBe(true);
  }, 60_000);

  it('fails a guide whose server never listens, naming the step that started it and what it printed', async () => {
    const port = await freePort();
    const followed = await follow(projectOf(serverGuide(port, 'no-such-server.mjs')), 'no-server');
    expect(followed.problem?.split('\n')[0]).toBe(
      `guide.md (pings): step 3 of 4 (guide.md:11: started \`node no-such-server.mjs --port ${port}\`) failed:`,
    );
    expect(followed.problem).toMatch(/ended \(exit 1\) before port \d+ answered:[^]*Cannot find module/);
  }, 60_000);

  it('fails a guide whose port is taken before its server starts, rather than asking the other server', async () => {
    const other = createServer((_request, response) => response.end('not the guide')).listen(0, '127.0.0.1');
    await new Promise((resolve) => other.once('listening', resolve));
    const { port } = other.address() as AddressInfo;
    try {
      const followed = await follow(projectOf(serverGuide(port)), 'taken');
      expect(followed.problem).toContain(`port ${port} is already taken in the machine's loopback`);
    } finally {
      other.close();
    }
  }, 60_000);

  it('fails a guide whose server ends before the guide does, with what it printed', async () => {
    const port = await freePort();
    const text = serverGuide(port).replace(
      "listen(port, '127.0.0.1');",
      "listen(port, '127.0.0.1', () => setTimeout(() => { console.log('closing early'); process.exit(4); }, 300));",
    );
    const project = projectOf(text);
    const waits = { kind: 'run' as const, command: 'node -e "setTimeout(() => {}, 1500)"', at: 'guide.md:20' };
    const followed = await follow({ ...project, steps: [...project.steps.slice(0, -1), waits] }, 'ends-early');
    expect(followed.problem).toBe(
      `guide.md (pings): step 3 (\`node server.mjs --port ${port}\`) ended (exit 4) before the guide did:\nclosing early`,
    );
  }, 60_000);

  (namespaces ? it : it.skip)(
    'gives a guide with servers a loopback of its own: a port taken on the machine is free in it',
    async () => {
      const other = createServer((_request, response) => response.end('not the guide')).listen(0, '127.0.0.1');
      await new Promise((resolve) => other.once('listening', resolve));
      const { port } = other.address() as AddressInfo;
      const made = await ownLoopback();
      try {
        expect(made.network?.description).toBe('a network namespace of its own');
        const followed = await follow(projectOf(serverGuide(port)), 'own-loopback', { network: made.network });
        expect(followed).toEqual({ output: expect.stringContaining('pong') });
        expect(followed.output).not.toContain('not the guide');
      } finally {
        made.network?.close();
        other.close();
      }
    },
    60_000,
  );

  it('reads a range with spaces, and a block marked for two targets', () => {
    const text = [
      '<!-- run: a b -->',
      `${fence}sh`,
      `npm install --save-dev 'msw@^2.15.0 || ^3.0.0' ${TGZ}`,
      'npx vitest run',
      `${fence}`,
    ].join('\n');
    const { projects } = docsProjects([{ file: 'guide.md', text }], TGZ);
    expect(projects.map(({ name, dependencies }) => [name, dependencies.get('msw')])).toEqual([
      ['a', '^2.15.0 || ^3.0.0'],
      ['b', '^2.15.0 || ^3.0.0'],
    ]);
  });

  it.each([
    ['a mark with no block under it', '<!-- file: sums/a.ts -->\n\ntext', /is not followed by a code block/],
    ['a file outside its project', `<!-- file: sums/../a.ts -->\n${fence}ts\nx\n${fence}`, /inside the project/],
    ['a project that runs nothing', `<!-- file: sums/a.ts -->\n${fence}ts\nx\n${fence}`, /does not end with a command/],
    [
      'a project whose last step is a file',
      `${guide('2 + 2')}\n<!-- file: sums/later.mjs -->\n${fence}js\nx\n${fence}`,
      /does not end with a command that shows it working/,
    ],
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

  it("gives a guide a newcomer's shell: the leg's node first, nothing of this repository's npm run", () => {
    const given = newcomerEnv('/opt/node22/bin', {
      PATH: '/work/main/node_modules/.bin:/usr/bin',
      npm_lifecycle_event: 'examples',
      npm_config_local_prefix: '/work/main',
      INIT_CWD: '/work/main',
      HOME: '/root',
    });
    expect(given).toMatchObject({ PATH: '/opt/node22/bin:/usr/bin', npm_config_prefer_offline: 'true', HOME: '/root' });
    expect(Object.keys(given).filter((name) => /^npm_lifecycle|local_prefix|INIT_CWD/.test(name))).toEqual([]);
  });

  it('installs one version for every project of examples/, and stops on two that no version satisfies', () => {
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
      mergedDependencies([project('examples/a', { vite: '8.3.8' }), project('examples/b', { vite: '7.1.0' })]),
    ).toThrow(
      new DependencyConflictError(
        'vite: examples/a wants 8.3.8, examples/b wants 7.1.0; pin one version in every project',
      ),
    );
  });
});
