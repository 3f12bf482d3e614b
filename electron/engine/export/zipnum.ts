import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { createOutput, finish, readLines, writeChunk } from './lines.js';

const gzipAsync = promisify(gzip);

/** CDXJ lines per gzip block, as pywb's ZipNum clusters and py-wacz use. */
const LINES_PER_BLOCK = 3000;

/**
 * Turns a sorted CDXJ file into WACZ's compressed form: `index.cdx.gz`, blocks of lines each its own
 * gzip member, and `index.idx` (format cdxj-gzip-1.0) naming each block's first key, offset, length
 * and SHA-256, so a replay tool loads only the blocks a lookup needs.
 */
export async function writeCompressedIndex(
  sortedCdxj: string,
  gzFile: string,
  idxFile: string,
  gzName: string,
): Promise<void> {
  const gz = createOutput(gzFile);
  const idx = createOutput(idxFile);
  let offset = 0;
  let block: string[] = [];
  const flush = async (): Promise<void> => {
    if (block.length === 0) return;
    const first = block[0]!;
    const prefix = first.slice(0, first.indexOf(' {'));
    const member = await gzipAsync(Buffer.from(block.join('\n') + '\n'));
    await writeChunk(gz, member);
    const digest = `sha256:${createHash('sha256').update(member).digest('hex')}`;
    await writeChunk(idx, `${prefix} ${JSON.stringify({ offset, length: member.length, digest, filename: gzName })}\n`);
    offset += member.length;
    block = [];
  };
  try {
    await writeChunk(idx, `!meta 0 ${JSON.stringify({ format: 'cdxj-gzip-1.0', filename: gzName })}\n`);
    for await (const line of readLines(sortedCdxj)) {
      if (line === '') continue;
      block.push(line);
      if (block.length >= LINES_PER_BLOCK) await flush();
    }
    await flush();
  } finally {
    await Promise.all([finish(gz), finish(idx)]);
  }
}
