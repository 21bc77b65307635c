// "Did you mean …?" for mistyped names: flags, commands, profile keys. One helper so every place suggests alike.

/** Edit distance counting a swap of two neighbouring letters as one edit (rnu → run is 1). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known name closest to `word`, if it is close enough to be a likely typo: within a third of its length in
 * edits (at least 1, at most 3), or the known name starts with it (timeout → timeoutMs). Case is ignored.
 */
export function didYouMean(word: string, known: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const n = name.toLowerCase();
    if (n === w) return name;
    const distance = n.startsWith(w) && w.length >= 3 ? 1 : editDistance(w, n);
    if (!best || distance < best.distance) best = { name, distance };
  }
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  return best && best.distance <= limit ? best.name : undefined;
}
