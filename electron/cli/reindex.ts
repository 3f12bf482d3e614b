import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DocumentPool } from '../engine/crawl/documentPool.js';
import { rebuildTextIndex } from '../engine/crawl/textIndexing.js';
import { Archive } from '../engine/store/archive.js';
import { TextIndex } from '../engine/store/textIndex.js';
import { CountProgress } from './countProgress.js';
import { UsageError } from './usage.js';
import { onInterrupt } from './interrupts.js';


/**
 * `harvest reindex`: builds the archive's search index anew from its WARC files and mirror, without
 * fetching anything. It holds the archive (a crawl can't run meanwhile); Ctrl-C leaves the old index.
 */
export async function runReindex(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { quiet: { type: 'boolean' } } });
  } catch (e) {
    throw new UsageError((e as Error).message, 'reindex');
  }
  if (parsed.positionals.length !== 1) throw new UsageError('reindex needs exactly one <archive-dir>', 'reindex');
  const archive = Archive.open(parsed.positionals[0]!);
  const pool = new DocumentPool({ mirrorRoot: archive.mirror.root, tmpDir: archive.mirror.tmpDir });
  const progress = new CountProgress(process.stderr, 'documents read', parsed.values.quiet ?? false);
  const abort = new AbortController();
  const stopListening = onInterrupt(() => abort.abort());
  const started = Date.now();
  try {
    await pool.ready();
    const { documents } = await rebuildTextIndex(archive, pool, (done, total) => progress.update(done, total), abort.signal);
    progress.done();
    const bytes = statSync(TextIndex.fileIn(archive.dir)).size;
    process.stderr.write(
      `indexed ${documents} documents in ${((Date.now() - started) / 1000).toFixed(1)} s: ${TextIndex.fileIn(archive.dir)} (${(bytes / 1048576).toFixed(1)} MiB)\n`,
    );
    return 0;
  } catch (e) {
    progress.done();
    if (abort.signal.aborted) {
      process.stderr.write('reindex interrupted: the previous index is unchanged\n');
      return 130;
    }
    throw e;
  } finally {
    stopListening();
    await pool.close();
    archive.close();
  }
}
