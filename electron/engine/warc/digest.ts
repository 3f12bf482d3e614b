import { createHash } from 'node:crypto';

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * RFC 4648 base32 with '=' padding. Padding matters: python warcio's `check` compares against
 * `base64.b32encode`, which pads, and reads a value of any other length as hex or base64.
 */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let value = 0;
  let bits = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += BASE32_ALPHABET.charAt((value >> bits) & 31);
    }
  }
  if (bits > 0) out += BASE32_ALPHABET.charAt((value << (5 - bits)) & 31);
  return out.padEnd(Math.ceil(out.length / 8) * 8, '=');
}

/**
 * A WARC digest value, `sha256:<base32>`. SHA-256 rather than the SHA-1 of older crawlers because
 * revisit records trust a digest match to stand for identical content, and SHA-1 collisions can be made.
 */
export function warcDigest(parts: readonly Uint8Array[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return `sha256:${base32(hash.digest())}`;
}

/** The digest of no bytes: the request records' payload, and one never deduplicated. */
export const EMPTY_DIGEST = warcDigest([]);
