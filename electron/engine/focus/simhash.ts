/**
 * 64-bit SimHash over word shingles (Charikar), and an index that finds an earlier page within a
 * Hamming distance. A hash is kept as a bigint; the bit work runs on two 32-bit halves.
 */

/** FNV-1a, 32 bits, from a basis: two bases give a shingle's two independent halves. */
function fnv1a(s: string, basis: number): number {
  let h = basis;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  // FNV's low bits mix poorly on short inputs; a final avalanche (murmur3's fmix32) spreads them.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const BASIS_HI = 0x811c9dc5;
const BASIS_LO = 0x050c5d1f;

/** Mixes a shingle's word hashes, so ["a", "b"] and ["b", "a"] differ (murmur3's fmix32 at the end). */
function combine(hashes: Uint32Array, from: number, size: number, salt: number): number {
  let h = salt;
  for (let k = 0; k < size; k++) {
    h = Math.imul(h ^ hashes[from + k]!, 0x01000193);
    h = (h << 13) | (h >>> 19);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The SimHash of `words` over shingles of `size` words (a text shorter than that is one shingle); 0n for no words. */
export function simhash64(words: readonly string[], size = 3): bigint {
  if (words.length === 0) return 0n;
  // Each word is hashed once; a shingle's two halves mix its words' hashes with two salts.
  const hashes = new Uint32Array(words.length);
  for (let i = 0; i < words.length; i++) hashes[i] = fnv1a(words[i]!, BASIS_HI);
  const width = Math.min(size, words.length);
  const v = new Int32Array(64);
  const n = words.length - width + 1;
  for (let i = 0; i < n; i++) {
    const hi = combine(hashes, i, width, BASIS_HI);
    const lo = combine(hashes, i, width, BASIS_LO);
    for (let b = 0; b < 32; b++) {
      v[b] = v[b]! + (((hi >>> b) & 1) << 1) - 1;
      v[32 + b] = v[32 + b]! + (((lo >>> b) & 1) << 1) - 1;
    }
  }
  let hi = 0;
  let lo = 0;
  for (let b = 0; b < 32; b++) {
    if (v[b]! > 0) hi |= 1 << b;
    if (v[32 + b]! > 0) lo |= 1 << b;
  }
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Bits in which two 64-bit hashes differ (on two 32-bit halves: a lookup compares many). */
export function hamming(a: bigint, b: bigint): number {
  const x = a ^ b;
  return popcount32(Number(x & 0xffffffffn)) + popcount32(Number((x >> 32n) & 0xffffffffn));
}

/** Of a near-duplicate and its original: 1 for the same main content, else the share of SimHash bits they agree on. */
export function similarityOf(hash: string, digest: string, originalHash: string, originalDigest: string): number {
  if (digest === originalDigest) return 1;
  return 1 - hamming(BigInt(`0x${hash}`), BigInt(`0x${originalHash}`)) / 64;
}

/** 16 hex digits, as stored in the catalogue. */
export function simhashHex(h: bigint): string {
  return h.toString(16).padStart(16, '0');
}

/**
 * Earlier pages by SimHash. Two hashes within distance k agree exactly on at least one of k + 1
 * bit blocks (pigeonhole), so only pages sharing a block are compared: a lookup costs a few map
 * probes however many pages are indexed.
 */
export class NearDuplicateIndex<T> {
  private readonly blocks: { shift: bigint; mask: bigint; map: Map<bigint, { hash: bigint; value: T }[]> }[] = [];

  constructor(readonly maxHamming: number) {
    const count = maxHamming + 1;
    const width = Math.ceil(64 / count);
    for (let i = 0; i < count; i++) {
      const start = i * width;
      const bits = Math.min(width, 64 - start);
      if (bits <= 0) break;
      this.blocks.push({ shift: BigInt(start), mask: (1n << BigInt(bits)) - 1n, map: new Map() });
    }
  }

  /** The first indexed value within maxHamming of `hash`, with its distance, or null. */
  find(hash: bigint): { value: T; distance: number } | null {
    let best: { value: T; distance: number } | null = null;
    for (const b of this.blocks) {
      const list = b.map.get((hash >> b.shift) & b.mask);
      if (list === undefined) continue;
      for (const e of list) {
        const d = hamming(e.hash, hash);
        if (d <= this.maxHamming && (best === null || d < best.distance)) best = { value: e.value, distance: d };
      }
    }
    return best;
  }

  add(hash: bigint, value: T): void {
    for (const b of this.blocks) {
      const key = (hash >> b.shift) & b.mask;
      const list = b.map.get(key);
      if (list === undefined) b.map.set(key, [{ hash, value }]);
      else list.push({ hash, value });
    }
  }
}
