// `npm run docs`: rewrites every generated block of README.md and docs/ (the tables the code owns and
// the CLI reference) from the code. `--check` only lists the stale files and exits 1 when there are any.
import { readFileSync, writeFileSync } from 'node:fs';
import { documentationFiles, regenerated, staleFiles } from './docs/generated-blocks.js';

const root = process.cwd();
if (process.argv.includes('--check')) {
  const stale = staleFiles(root);
  for (const file of stale) process.stderr.write(`${file}: a generated block is stale (run npm run docs)\n`);
  process.exit(stale.length > 0 ? 1 : 0);
}
for (const file of documentationFiles(root)) {
  const text = readFileSync(file, 'utf8');
  const fresh = regenerated(text, file);
  if (fresh !== text) {
    writeFileSync(file, fresh);
    process.stdout.write(`${file}: regenerated\n`);
  }
}
