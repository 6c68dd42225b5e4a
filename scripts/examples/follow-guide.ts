import { execFile } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describeStep, type DocsProject } from './docs-projects.js';
import { MACHINE_NETWORK, type Network } from './own-loopback.js';
import { startServer, type StartedServer } from './started-server.js';

const run = promisify(execFile);
// Some tools colour their errors whatever NO_COLOR says (Vite's bundler); a report is read as plain text.
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
// What installs from the registry: run on the machine's network, whatever network the project's servers have.
const INSTALL = /^npm\s+(install|i)(\s|$)/;

/** What following a guide gave: everything it printed, and `problem` when a step failed. */
export interface Followed {
  output: string;
  /** Names the guide, the project and the step that failed, then that step's output. */
  problem?: string;
  /** Why it was not followed at all (a program the page assumes is missing here). */
  skip?: string;
}

/** A server the page takes as already running on the reader's machine (a Redis), started before step 1. */
export interface AssumedService {
  /** As the page names it: "a Redis at 127.0.0.1:6379". */
  name: string;
  command: string;
  port: number;
}

/** Where a guide is followed beyond its folder. */
export interface FollowOptions {
  /** Where its commands and servers run (its `npm install` always on the machine's network). Default: the machine's. */
  network?: Network;
  services?: readonly AssumedService[];
}

const lastLines = (text: string, count: number) => text.replace(COLOUR, '').trim().split('\n').slice(-count).join('\n');

/**
 * Follows a guide as a newcomer would: in `dir` (empty), with a copy of the packed `tarball` in it, as
 * the guides say, writes each file, runs each command (through `sh -c`, as typed, the guide's own `npm
 * install` included) and starts each server the page leaves running, in the order the guide gives them,
 * stopping at the first command that exits non-zero. The servers are stopped at the end; one that ended
 * before then fails the guide.
 * @example await followGuide(project, '/tmp/x', '/tmp/petstore-harness-0.1.0.tgz', process.env)
 */
export async function followGuide(
  project: DocsProject,
  dir: string,
  tarball: string,
  env: NodeJS.ProcessEnv,
  { network = MACHINE_NETWORK, services = [] }: FollowOptions = {},
): Promise<Followed> {
  await mkdir(dir, { recursive: true });
  await copyFile(tarball, join(dir, basename(tarball)));
  const started: Array<{ server: StartedServer; what: string }> = [];
  const serversSaid = () =>
    started
      .map(({ server, what }) => `\n${what} printed:\n${lastLines(server.output(), 15)}`)
      .join('')
      .trimEnd();
  const named = `${project.guide} (${project.name})`;
  let output = '';
  try {
    for (const service of services) {
      const server = await startServer(service.command, service.port, dir, env, network).catch((error: Error) => {
        throw new Error(`${named}: ${service.name}, which the page assumes, did not start: ${error.message}`);
      });
      started.push({ server, what: `${service.name} (\`${service.command}\`)` });
    }
    for (const [index, step] of project.steps.entries()) {
      if (step.kind === 'file') {
        await mkdir(dirname(join(dir, step.path)), { recursive: true });
        await writeFile(join(dir, step.path), step.text);
        continue;
      }
      if (step.kind === 'start') {
        try {
          const server = await startServer(step.command, step.port, dir, env, network);
          started.push({ server, what: `step ${index + 1} (\`${step.command}\`)` });
        } catch (error) {
          return { output, problem: `${named}: ${describeStep(project, index)} failed:\n${(error as Error).message}` };
        }
        continue;
      }
      const [file, ...args] = (INSTALL.test(step.command) ? MACHINE_NETWORK : network).wrap(['sh', '-c', step.command]);
      try {
        const { stdout, stderr } = await run(file!, args, { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 });
        output += `${stdout}\n${stderr}\n`;
      } catch (error) {
        const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
        return {
          output,
          problem: `${named}: ${describeStep(project, index)} failed:\n${lastLines(`${stdout}\n${stderr}`, 40)}${serversSaid()}`,
        };
      }
    }
    const gone = started.find(({ server }) => server.ended());
    if (gone)
      return {
        output,
        problem: `${named}: ${gone.what} ended (${gone.server.ended()}) before the guide did:\n${lastLines(gone.server.output(), 40)}`,
      };
    return { output };
  } catch (error) {
    return { output, problem: (error as Error).message };
  } finally {
    await Promise.all(started.map(({ server }) => server.stop()));
  }
}
