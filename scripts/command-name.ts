/**
 * The command's name as the user ran it, for usage and help: the npm script (`npm start --`,
 * `npm run contract --`) or the installed bin.
 * @example commandName(process.env, 'petstore-fake', 'start') // 'npm start --' under npm start
 */
export function commandName(env: NodeJS.ProcessEnv, bin: string, script: string): string {
  if (env.npm_lifecycle_event !== script) return bin;
  return script === 'start' || script === 'test' ? `npm ${script} --` : `npm run ${script} --`;
}
