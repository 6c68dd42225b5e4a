// `npm run test:node -- 22 [jest args]`: `npm test`'s jest suite on another major version of Node, whose
// binary the npm package `node` fetches (npx -y node@22). The tests' own child processes
// (process.execPath) run on that Node too.
import { spawnSync } from 'node:child_process';

const [version, ...jestArgs] = process.argv.slice(2);
if (!version || !/^\d+(\.\d+){0,2}$/.test(version)) {
  process.stderr.write('usage: npm run test:node -- <major version, e.g. 22> [jest arguments]\n');
  process.exit(2);
}
const result = spawnSync(
  'npx',
  ['-y', `node@${version}`, '--experimental-vm-modules', 'node_modules/jest/bin/jest.js', ...jestArgs],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
