import { execFile } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describeStep, type DocsProject } from './docs-projects.js';

const run = promisify(execFile);
// Some tools colour their errors whatever NO_COLOR says (Vite's bundler); a report is read as plain text.
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** What following a guide gave: everything it printed, and `problem` when a step failed. */
export interface Followed {
  output: string;
  /** Names the guide, the project and the step that failed, then that step's output. */
  problem?: string;
}

/**
 * Follows a guide as a newcomer would: in `dir` (empty), beside a copy of the packed `tarball`, writes each
 * file and runs each command (through `sh -c`, as typed, the guide's own `npm install` included) in the
 * order the guide gives them, stopping at the first command that exits non-zero.
 * @example await followGuide(project, '/tmp/x', '/tmp/petstore-harness-0.1.0.tgz', process.env)
 */
export async function followGuide(
  project: DocsProject,
  dir: string,
  tarball: string,
  env: NodeJS.ProcessEnv,
): Promise<Followed> {
  await mkdir(dir, { recursive: true });
  await copyFile(tarball, join(dir, basename(tarball)));
  let output = '';
  for (const [index, step] of project.steps.entries()) {
    if (step.kind === 'file') {
      await mkdir(dirname(join(dir, step.path)), { recursive: true });
      await writeFile(join(dir, step.path), step.text);
      continue;
    }
    try {
      const { stdout, stderr } = await run('sh', ['-c', step.command], {
        cwd: dir,
        env,
        maxBuffer: 64 * 1024 * 1024,
      });
      output += `${stdout}\n${stderr}\n`;
    } catch (error) {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      const said = `${stdout}\n${stderr}`.replace(COLOUR, '').trim().split('\n').slice(-40).join('\n');
      return {
        output,
        problem: `${project.guide} (${project.name}): ${describeStep(project, index)} failed:\n${said}`,
      };
    }
  }
  return { output };
}
