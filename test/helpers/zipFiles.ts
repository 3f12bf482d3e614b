import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { ZipFile } from 'yazl';
import type { Exporter } from '../../electron/engine/export/types.js';

export interface ZipEntrySpec {
  name: string;
  data: Buffer;
  /** Deflate it (by default every entry is stored). */
  compress?: boolean;
}

/** Writes a ZIP of the given entries, stored uncompressed (unless asked) so a test can find and flip a byte. */
export async function writeZip(file: string, entries: ZipEntrySpec[]): Promise<void> {
  const zip = new ZipFile();
  for (const e of entries) zip.addBuffer(e.data, e.name, { compress: e.compress === true });
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
}

/** A WACZ's datapackage.json and datapackage-digest.json for the given resources (WACZ 1.1.1 shape). */
export function waczPackage(resources: ZipEntrySpec[]): ZipEntrySpec[] {
  const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
  const pkg = Buffer.from(
    JSON.stringify(
      {
        profile: 'data-package',
        wacz_version: '1.1.1',
        resources: resources.map((r) => ({
          name: path.posix.basename(r.name),
          path: r.name,
          hash: `sha256:${sha256(r.data)}`,
          bytes: r.data.length,
        })),
      },
      null,
      2,
    ),
  );
  const digest = Buffer.from(JSON.stringify({ path: 'datapackage.json', hash: `sha256:${sha256(pkg)}` }));
  return [
    { name: 'datapackage.json', data: pkg },
    { name: 'datapackage-digest.json', data: digest },
  ];
}

/**
 * Stands in for the WACZ exporter (built elsewhere): a real WACZ-shaped ZIP of the archive's WARC
 * files under archive/ with a datapackage.json listing their hashes.
 */
export const stubMakeWacz: Exporter = async (archive, outPath) => {
  const warcs = readdirSync(archive.warcDir)
    .filter((n) => n.endsWith('.warc.gz'))
    .sort()
    .map((n) => ({ name: `archive/${n}`, data: readFileSync(path.join(archive.warcDir, n)) }));
  const entries = [...warcs, ...waczPackage(warcs)];
  await writeZip(outPath, entries);
  return { path: outPath, bytes: readFileSync(outPath).length, files: entries.length };
};

/** Extracts a ZIP with yauzl into `dest`, refusing entry names that would leave it. */
export async function extractZip(file: string, dest: string): Promise<string[]> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true });
  const names: string[] = [];
  try {
    for await (const entry of zip.eachEntry()) {
      names.push(entry.fileName);
      if (entry.fileName.endsWith('/')) continue;
      const out = path.join(dest, ...entry.fileName.split('/'));
      if (!out.startsWith(path.resolve(dest) + path.sep)) throw new Error(`entry escapes: ${entry.fileName}`);
      mkdirSync(path.dirname(out), { recursive: true });
      await pipeline(await zip.openReadStreamPromise(entry), createWriteStream(out));
    }
  } finally {
    zip.close();
  }
  return names;
}
