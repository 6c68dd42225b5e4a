import { specDocument } from '../../spec/spec-artifacts.js';

/** One sentence of the spec's prose, and where it stands (a JSON pointer into `spec/openapi.yaml`). */
export interface SpecSentence {
  where: string;
  sentence: string;
}

// Examples are data, not prose; summaries name things and promise nothing.
const NOT_PROSE = new Set(['example', 'examples', 'summary']);

function descriptions(node: unknown, where: string): SpecSentence[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => descriptions(item, `${where}/${index}`));
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) => {
    if (key === 'description' && typeof value === 'string') return [{ where, sentence: value }];
    return NOT_PROSE.has(key) ? [] : descriptions(value, `${where}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  });
}

/**
 * Every sentence of every `description` in the spec (info, paths, operations, parameters, responses,
 * schemas and their properties, headers, security schemes), whitespace folded; a list item is a sentence.
 * @example specSentences().find(({ sentence }) => sentence === 'Every category, in ascending id order.')
 */
export function specSentences(document: object = specDocument()): SpecSentence[] {
  return descriptions(document, '#').flatMap(({ where, sentence: text }) =>
    text
      .split(/\n\s*-\s+|\n\s*\n/)
      .flatMap((part) =>
        part
          .replace(/\s+/g, ' ')
          .trim()
          .split(/(?<!\be\.g\.)(?<=\.)\s+(?=[A-Z`])/),
      )
      .map((sentence) => sentence.trim())
      .filter((sentence) => sentence !== '')
      .map((sentence) => ({ where, sentence })),
  );
}
