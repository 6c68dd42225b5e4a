import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checkTableMarkdown, distinctionTableMarkdown, promiseTableMarkdown, sentenceTableMarkdown, equivalenceTableMarkdown, faultTableMarkdown } from './readme-tables.js';

const README = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');

describe('the README reads its tables from the code', () => {
  it.each([
    ['checks', checkTableMarkdown],
    ['protocol equivalences', equivalenceTableMarkdown],
    ['path distinctions', distinctionTableMarkdown],
    ['promises of the model', promiseTableMarkdown],
    ['spec sentences', sentenceTableMarkdown],
    ['order-of-evaluation faults', faultTableMarkdown],
  ])('has the table of %s exactly as the code builds it (regenerate: node --import tsx scripts/readme-tables.ts --write)', (_name, table) => {
    expect(README).toContain(table());
  });
});
