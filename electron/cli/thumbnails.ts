import { parseArgs } from 'node:util';
import { findBrowser } from '../engine/render/browserPath.js';
import { thumbnailMirror } from '../engine/render/mirrorThumbnails.js';
import { Archive } from '../engine/store/archive.js';
import { UsageError } from './usage.js';
import { onInterrupt } from './interrupts.js';

/** `harvest thumbnails <archive-dir> [--browser-path <file>] [--quiet]`: thumbnails of a finished archive's pages. */
export async function runThumbnails(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, strict: true, options: { 'browser-path': { type: 'string' }, quiet: { type: 'boolean' } } });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError('thumbnails needs exactly one <archive-dir>');
  const archive = Archive.open(positionals[0]!);
  const abort = new AbortController();
  const stopListening = onInterrupt(() => abort.abort());
  try {
    const settings = archive.job.render;
    const executablePath = findBrowser(values['browser-path'] ?? settings.browserPath);
    let last = 0;
    const result = await thumbnailMirror(
      archive,
      { ...settings, executablePath },
      {
        signal: abort.signal,
        onProgress: (done, total) => {
          if (values.quiet || (Date.now() - last < 200 && done < total)) return;
          last = Date.now();
          process.stderr.write(`\rthumbnails: ${done}/${total} pages`);
        },
      },
    );
    if (!values.quiet) process.stderr.write('\n');
    for (const f of result.failed) process.stderr.write(`failed: ${f.url}: ${f.error}\n`);
    process.stderr.write(`thumbnails: ${result.made} made, ${result.kept} already there, ${result.failed.length} failed\n`);
    return result.failed.length > 0 ? 1 : 0;
  } catch (e) {
    if (abort.signal.aborted) {
      process.stderr.write('\nharvest: thumbnails interrupted; run it again to make the rest\n');
      return 130;
    }
    throw e;
  } finally {
    stopListening();
    archive.close();
  }
}
