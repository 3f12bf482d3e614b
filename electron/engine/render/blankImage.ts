import { PNG } from 'pngjs';

const made = new Map<string, Buffer>();

/**
 * A white PNG of the given size: the picture of a page the browser never painted (it left by
 * script before its first paint, and a screenshot of it would wait for a frame that never comes).
 */
export function blankPng(width: number, height: number): Buffer {
  const key = `${width}x${height}`;
  let png = made.get(key);
  if (png === undefined) {
    const image = new PNG({ width, height });
    image.data.fill(255);
    png = PNG.sync.write(image);
    made.set(key, png);
  }
  return png;
}
