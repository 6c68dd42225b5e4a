/** Edits (insertions, deletions, substitutions) between two words: how far a typo is from a name. */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** The name closest to a typo, when one is close enough to be what was meant. */
export function closestName(typo: string, names: readonly string[]): string | undefined {
  const [best] = names
    .map((name) => ({ name, distance: editDistance(typo, name) }))
    .filter(({ distance }) => distance <= Math.max(2, Math.floor(typo.length / 4)))
    .sort((a, b) => a.distance - b.distance);
  return best?.name;
}
