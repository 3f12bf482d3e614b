import { inflateSync } from 'node:zlib';

/**
 * Decodes a PNG far enough to prove it is a whole image: signature, IHDR, and IDAT data that
 * inflates to exactly the rows the header promises (8-bit colour types only). Returns its size.
 */
export function decodePngSize(png: Buffer): { width: number; height: number } {
  if (!png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) throw new Error('not a PNG');
  let pos = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (pos < png.length) {
    const len = png.readUInt32BE(pos);
    const type = png.toString('latin1', pos + 4, pos + 8);
    const data = png.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8) throw new Error(`bit depth ${data[8]} not checked here`);
      channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[data[9]!] ?? 0;
      if (channels === 0) throw new Error(`colour type ${data[9]} not checked here`);
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    pos += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  if (raw.length !== height * (1 + width * channels)) throw new Error(`pixel data is ${raw.length} bytes, not ${height} rows of ${width}`);
  return { width, height };
}
