import type { EvidenceEntry } from '../generate/schema-evidence.js';

/** How many entries of one axis or source the catalogue has, and how many the run tried. */
export interface EvidenceCount {
  catalogue: number;
  tried: number;
}

/** The catalogue's entries, and those tried, counted by `key` (in the catalogue's order of first appearance). */
function countedBy(
  catalogue: readonly EvidenceEntry[],
  tried: ReadonlySet<string>,
  key: (entry: EvidenceEntry) => string,
): Record<string, EvidenceCount> {
  const counts: Record<string, EvidenceCount> = {};
  for (const entry of catalogue) {
    const count = (counts[key(entry)] ??= { catalogue: 0, tried: 0 });
    count.catalogue += 1;
    if (tried.has(entry.id)) count.tried += 1;
  }
  return counts;
}

/**
 * The catalogue's size by axis and by source, as the report's evidence line prints it.
 * @example catalogueCounts(evidenceCatalogue()).bySource // { spec: { catalogue: 120, tried: 0 }, ... }
 */
export function catalogueCounts(
  catalogue: readonly EvidenceEntry[],
  tried: ReadonlySet<string> = new Set(),
): { byAxis: Record<string, EvidenceCount>; bySource: Record<string, EvidenceCount> } {
  return {
    byAxis: countedBy(catalogue, tried, ({ axis, kind }) => axis ?? kind),
    bySource: countedBy(catalogue, tried, ({ source }) => source ?? 'listed'),
  };
}
