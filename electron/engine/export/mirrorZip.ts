import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { ENTRY_PAGE, entryPageHtml } from '../crawl/entryPage.js';
import { aboutText } from './aboutText.js';
import { commitPartial, partialPathOf, refuseExisting } from './atomicOutput.js';
import { listFiles } from './mirrorFiles.js';
import { PortableNameChecker, UnportableNamesError } from './portableNames.js';
import { readProvenance } from './provenance.js';
import type { Exporter } from './types.js';

export const ABOUT_FILE = '_about.txt';

/** Formats that are compressed already: deflating them again only costs time. */
const STORED = /\.(png|jpe?g|gif|webp|avif|ico|woff2?|pdf|zip|gz|br|mp3|mp4|webm|ogg)$/i;

/**
 * The browsable mirror as one ZIP: `<name>/index.html` opens the site offline by double-click,
 * `<name>/_about.txt` says what it is. Files are streamed from disk one at a time into
 * `<out>.partial`, which is flushed and renamed once complete.
 */
export const exportMirrorZip: Exporter = async (archive, outPath, opts) => {
  refuseExisting(outPath);
  const top = path.basename(outPath).replace(/\.zip$/i, '') || 'site';
  const { files, bytes: totalBytes } = await listFiles(archive.mirror.root);

  const names = new PortableNameChecker();
  for (const name of [top, ...files.map((f) => `${top}/${f.rel}`)]) names.add(name);
  if (names.problems.length > 0) throw new UnportableNamesError(names.problems);

  const exportedAt = new Date();
  const zip = new ZipFile();
  const about = aboutText(readProvenance(archive), opts.metadata, exportedAt, names.tooLong.length);
  zip.addBuffer(Buffer.from(about), `${top}/${ABOUT_FILE}`, { mtime: exportedAt });
  // The front door is written afresh, so it carries the description as it is now (and exists even
  // if the crawl never got to write one).
  zip.addBuffer(Buffer.from(entryPageHtml(archive, opts.metadata)), `${top}/${ENTRY_PAGE}`, { mtime: exportedAt });
  const siteFiles = files.filter((f) => f.rel !== ENTRY_PAGE);
  let doneBytes = 0;
  for (const f of siteFiles) {
    // Lazily opened, so one file is open at a time however many the mirror holds.
    zip.addReadStreamLazy(`${top}/${f.rel}`, { size: f.size, compress: !STORED.test(f.rel), mtime: f.mtime }, (cb) => {
      const stream = createReadStream(f.abs);
      stream.on('data', (chunk) => {
        doneBytes += chunk.length;
        opts.onProgress?.({ phase: 'writing', doneBytes, totalBytes });
      });
      cb(null, stream);
    });
  }
  zip.end();

  const partial = partialPathOf(outPath);
  // yazl's output is a PassThrough; it reports a failing input file on the ZipFile, not on the output.
  const output = zip.outputStream as Readable;
  zip.once('error', (e: Error) => output.destroy(e));
  try {
    // flush: the file is fsynced before it closes, so the rename below never exposes unwritten data.
    await pipeline(output, createWriteStream(partial, { flush: true }), { signal: opts.signal });
  } catch (e) {
    await rm(partial, { force: true });
    throw e;
  }
  const { size } = await stat(partial);
  await commitPartial(partial, outPath);
  return { path: path.resolve(outPath), bytes: size, files: siteFiles.length + 2 };
};
