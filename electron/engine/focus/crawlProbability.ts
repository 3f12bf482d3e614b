/**
 * Seeds from a ranked list are crawled with probability P = 1 − (s + f)/(2n): n seeds, s the
 * seed's position (0 for the first), f the earlier seeds known to have yielded no useful record.
 * The draw uses a seeded generator, so the same list, outcomes and seed repeat the same choices.
 */
export function crawlProbability(position: number, failuresBefore: number, n: number): number {
  if (n <= 0) return 0;
  return Math.min(1, Math.max(0, 1 - (position + failuresBefore) / (2 * n)));
}

/** mulberry32: a small, fast 32-bit generator; enough for sampling, not for secrets. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SeedDecision {
  seed: string;
  probability: number;
  crawl: boolean;
}

/**
 * Decides, in rank order, which seeds this run crawls. `unproductive` holds the seeds earlier runs
 * found to yield no useful record; they count towards f for every seed ranked after them.
 */
export function sampleSeeds(ranked: readonly string[], unproductive: ReadonlySet<string>, randomSeed: number): SeedDecision[] {
  const random = seededRandom(randomSeed);
  let failures = 0;
  return ranked.map((seed, s) => {
    const probability = crawlProbability(s, failures, ranked.length);
    if (unproductive.has(seed)) failures++;
    return { seed, probability, crawl: random() < probability };
  });
}
