import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

/** pixelmatch's per-pixel colour tolerance (0..1): anti-aliasing and font hinting stay below it. */
const PIXEL_THRESHOLD = 0.1;

/**
 * The share of pixels two same-size PNG screenshots have alike, 0..1 (pixelmatch, anti-aliased
 * pixels forgiven). Captures of different sizes share nothing to compare pixel by pixel: 0.
 */
export function screenshotMatch(a: Buffer, b: Buffer): number {
  const pa = PNG.sync.read(a);
  const pb = PNG.sync.read(b);
  if (pa.width !== pb.width || pa.height !== pb.height) return 0;
  const pixels = pa.width * pa.height;
  if (pixels === 0) return 1;
  const differ = pixelmatch(pa.data, pb.data, null, pa.width, pa.height, { threshold: PIXEL_THRESHOLD });
  return 1 - differ / pixels;
}
