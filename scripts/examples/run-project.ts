import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Runs a project's commands in order in its folder, each through `sh -c` as a user types it; stops at the
 * first that exits non-zero. Resolves to what they printed, and `problem` (the command and its output)
 * when one failed.
 * @example await runProject(['npx vitest run'], dir, process.env)
 */
export async function runProject(
  commands: readonly string[],
  dir: string,
  env: NodeJS.ProcessEnv,
): Promise<{ output: string; problem?: string }> {
  let output = '';
  for (const command of commands) {
    try {
      const { stdout, stderr } = await run('sh', ['-c', command], { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 });
      output += `${stdout}\n${stderr}\n`;
    } catch (error) {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      return { output, problem: `\`${command}\` failed:\n${stdout}\n${stderr}` };
    }
  }
  return { output };
}
