import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  checkTableMarkdown,
  distinctionTableMarkdown,
  equivalenceTableMarkdown,
  faultTableMarkdown,
  promiseTableMarkdown,
  ruleTableMarkdown,
  sentenceTableMarkdown,
} from '../../contracts/report/doc-tables.js';
import { cliReferenceMarkdown } from './cli-reference.js';
import { defaultKeysMarkdown, planLimitsMarkdown } from './plan-tables.js';

/** Every block of the docs that the code owns, by name: `<!-- generated:NAME -->` ... `<!-- /generated -->`. */
export const GENERATED_BLOCKS: Record<string, () => string> = {
  checks: checkTableMarkdown,
  equivalences: equivalenceTableMarkdown,
  distinctions: distinctionTableMarkdown,
  promises: promiseTableMarkdown,
  rules: ruleTableMarkdown,
  sentences: sentenceTableMarkdown,
  'evaluation-order': faultTableMarkdown,
  cli: cliReferenceMarkdown,
  plans: planLimitsMarkdown,
  'default-keys': defaultKeysMarkdown,
};

const BLOCK = /<!-- generated:([\w-]+) -->\n([\s\S]*?)<!-- \/generated -->/g;

/** README.md and every Markdown file under docs/, relative to `root`. */
export function documentationFiles(root: string): string[] {
  const walk = (folder: string): string[] =>
    readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? walk(join(folder, entry.name))
        : entry.name.endsWith('.md')
          ? [join(folder, entry.name)]
          : [],
    );
  return ['README.md', ...walk('docs')];
}

/** The text with each generated block as the code builds it now; throws on a block name nothing generates. */
export function regenerated(text: string, file: string): string {
  return text.replace(BLOCK, (_whole, name: string) => {
    const build = GENERATED_BLOCKS[name];
    if (!build)
      throw new Error(
        `${file}: no generated block is called "${name}" (known: ${Object.keys(GENERATED_BLOCKS).join(', ')})`,
      );
    return `<!-- generated:${name} -->\n${build()}\n<!-- /generated -->`;
  });
}

/** Names of the generated blocks a file holds. */
export function blocksIn(text: string): string[] {
  return [...text.matchAll(BLOCK)].map((match) => match[1]!);
}

/** The files whose generated blocks differ from what the code builds now. */
export function staleFiles(root: string): string[] {
  return documentationFiles(root).filter((file) => {
    const text = readFileSync(join(root, file), 'utf8');
    return regenerated(text, file) !== text;
  });
}
