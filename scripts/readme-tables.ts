// The README's generated tables (checks, protocol equivalences, path distinctions, the model's promises,
// the spec's sentences, order-of-evaluation faults): `--write` puts them in README.md in place of the
// ones there (each found by its header row); without it they are printed. `npm test` fails until the
// README holds them as the code makes them.
import { readFileSync, writeFileSync } from 'node:fs';
import { checkTableMarkdown, distinctionTableMarkdown, promiseTableMarkdown, sentenceTableMarkdown, equivalenceTableMarkdown, faultTableMarkdown } from '../contracts/report/readme-tables.js';

const tables = [checkTableMarkdown(), equivalenceTableMarkdown(), distinctionTableMarkdown(), promiseTableMarkdown(), sentenceTableMarkdown(), faultTableMarkdown()];

if (process.argv.includes('--write')) {
  let readme = readFileSync('README.md', 'utf8');
  for (const table of tables) {
    const header = table.split('\n')[0]!;
    const start = readme.indexOf(header);
    if (start < 0) throw new Error(`README.md has no table starting with: ${header}`);
    const end = readme.indexOf('\n\n', start);
    readme = `${readme.slice(0, start)}${table}${end < 0 ? '\n' : readme.slice(end)}`;
  }
  writeFileSync('README.md', readme);
} else {
  process.stdout.write(`${tables.join('\n\n')}\n`);
}
