import { NearDuplicateIndex } from './simhash.js';

/**
 * The pages a focused harvest has judged originals, by body digest (exact duplicates) and SimHash
 * (near-duplicates). A memory may sit on a parent it reads through without changing it: a cluster
 * worker judges a batch's pages against the harvest's committed pages plus the batch's own, and
 * drops the batch's layer if its commit does not happen.
 */
export class DuplicateMemory {
  private readonly near: NearDuplicateIndex<number>;
  private readonly digests = new Map<string, number>();
  /** Pages a person marked as no near-duplicate: never judged one again. */
  private readonly apart = new Set<number>();

  constructor(
    readonly maxHamming: number,
    private readonly parent: DuplicateMemory | null = null,
  ) {
    this.near = new NearDuplicateIndex(maxHamming);
  }

  /** The page (URL id) that `hash`/`digest` repeats, never `self` (a page met again in a re-crawl); null if none. */
  original(hash: bigint, digest: string, self: number): number | null {
    if (this.isApart(self)) return null;
    const exact = this.byDigest(digest);
    if (exact !== null && exact !== self) return exact;
    // A page without a SimHash (little main content, mostly links) is compared by its digest only.
    if (hash === 0n) return null;
    const hit = this.closest(hash);
    return hit !== null && hit.value !== self ? hit.value : null;
  }

  /** Remembers an original page; a digest keeps its first page. */
  add(hash: bigint, digest: string, id: number): void {
    if (hash !== 0n) this.near.add(hash, id);
    if (this.byDigest(digest) === null) this.digests.set(digest, id);
  }

  /** Page `id` is an original whatever it repeats (its flag was marked false). */
  keepApart(id: number): void {
    this.apart.add(id);
  }

  private isApart(id: number): boolean {
    return this.apart.has(id) || (this.parent?.isApart(id) ?? false);
  }

  private byDigest(digest: string): number | null {
    return this.parent?.byDigest(digest) ?? this.digests.get(digest) ?? null;
  }

  private closest(hash: bigint): { value: number; distance: number } | null {
    const mine = this.near.find(hash);
    const theirs = this.parent?.closest(hash) ?? null;
    if (theirs === null) return mine;
    return mine === null || theirs.distance <= mine.distance ? theirs : mine;
  }
}
