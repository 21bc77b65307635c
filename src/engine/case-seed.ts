// The seed of one case, so that a case draws the same data (and an explore case the same sequences) whatever runs
// beside it and in whatever order.

/** A 32-bit seed for one case from the run's seed and the case id (FNV-1a). */
export function caseSeed(seed: number, caseId: string): number {
  let hash = 0x811c9dc5;
  for (const ch of `${seed}:${caseId}`) {
    hash ^= ch.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
