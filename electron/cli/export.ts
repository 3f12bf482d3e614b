import { parseArgs } from 'node:util';
import { EXPORT_FORMATS, type ExportFormat, type ExportProgress } from '../../shared/metadata.js';
import { ExportWriteError } from '../engine/export/errors.js';
import { EXPORTERS } from '../engine/export/exporters.js';
import { isManifestAlgorithm, type ManifestAlgorithm } from '../engine/export/hashing.js';
import { Archive } from '../engine/store/archive.js';
import { readMetadata } from '../engine/store/metadata.js';
import { formatBytes, plural } from '../../shared/format.js';
import { UsageError } from './usage.js';
import { onInterrupt } from './interrupts.js';

const BAR_WIDTH = 24;
const PLAIN_EVERY_MS = 5_000;

/** `harvest export <archive-dir> --format wacz|warc|zip|bagit --out <path> [--capture N] [--include-mirror] [--no-page-text] [--bag-checksums <algs>] [--quiet]` */
export async function runExport(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        format: { type: 'string' },
        out: { type: 'string', short: 'o' },
        'include-mirror': { type: 'boolean' },
        'no-page-text': { type: 'boolean' },
        'bag-checksums': { type: 'string' },
        capture: { type: 'string' },
        quiet: { type: 'boolean' },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message, 'export');
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError('export needs exactly one <archive-dir>', 'export');
  const format = values.format;
  if (format === undefined || !(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`export needs --format ${EXPORT_FORMATS.join('|')}`, 'export');
  }
  if (!values.out) throw new UsageError('export needs --out <path>', 'export');
  const bagAlgorithms = bagChecksums(values['bag-checksums']);
  const capture = captureOption(values.capture, format as ExportFormat);
  const exporter = EXPORTERS[format as ExportFormat];

  // A crawl writing the archive would change its files under the export.
  const archive = Archive.open(positionals[0]!, { readonly: true, idle: true });
  const abort = new AbortController();
  const stopListening = onInterrupt(() => abort.abort());
  const bar = new ExportProgressBar(process.stderr, values.quiet ?? false);
  try {
    const result = await exporter(archive, values.out, {
      metadata: readMetadata(archive.catalogue),
      signal: abort.signal,
      onProgress: (p) => bar.update(p),
      includeMirror: values['include-mirror'] ?? false,
      noPageText: values['no-page-text'] ?? false,
      ...(bagAlgorithms && { bagAlgorithms }),
      ...(capture !== undefined && { capture }),
    });
    bar.clear();
    process.stderr.write(`exported ${format}: ${result.path} (${formatBytes(result.bytes)}, ${plural(result.files, 'file')})\n`);
    return 0;
  } catch (e) {
    bar.clear();
    if (abort.signal.aborted) {
      process.stderr.write('harvest: export cancelled; nothing was written\n');
      return 130;
    }
    if (e instanceof ExportWriteError) {
      process.stderr.write(`harvest: export failed: ${e.message}\n`);
      return 1;
    }
    throw e;
  } finally {
    stopListening();
    archive.close();
  }
}

/** `--capture N`: one capture of the archive; the offline copy (zip) is always the latest. */
function captureOption(value: string | undefined, format: ExportFormat): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d{0,8}$/.test(value)) throw new UsageError(`--capture takes a capture number (1, 2, ...; see harvest captures), not '${value}'`, 'export');
  if (format === 'zip') throw new UsageError('--capture is for wacz, warc and bagit: a zip holds the offline copy, which shows the latest capture', 'export');
  return Number(value);
}

/** `--bag-checksums sha512,sha256`: the bag's manifest algorithms, one manifest each. */
function bagChecksums(value: string | undefined): ManifestAlgorithm[] | undefined {
  if (value === undefined) return undefined;
  const algs = value.split(',').map((a) => a.trim().toLowerCase()).filter((a) => a !== '');
  const bad = algs.find((a) => !isManifestAlgorithm(a));
  if (algs.length === 0 || bad !== undefined) {
    throw new UsageError(`--bag-checksums takes sha512, sha256, sha1 or md5, comma-separated${bad ? `, not '${bad}'` : ''}`, 'export');
  }
  return algs as ManifestAlgorithm[];
}

/** The export's progress on one stderr line, redrawn in place (a line every few seconds without a terminal). */
class ExportProgressBar {
  #drawn = false;
  #lastPlainMs = 0;
  #lastPhase = '';

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly quiet: boolean,
  ) {}

  update(p: ExportProgress): void {
    if (this.quiet) return;
    const text = formatExportProgress(p);
    if (this.out.isTTY) {
      this.out.write(`\r${text.slice(0, (this.out.columns || 120) - 1)}\x1b[K`);
      this.#drawn = true;
    } else if (p.phase !== this.#lastPhase || Date.now() - this.#lastPlainMs >= PLAIN_EVERY_MS) {
      this.#lastPhase = p.phase;
      this.#lastPlainMs = Date.now();
      this.out.write(text + '\n');
    }
  }

  clear(): void {
    if (this.#drawn) this.out.write('\r\x1b[K');
    this.#drawn = false;
  }
}

export function formatExportProgress(p: ExportProgress): string {
  if (p.totalBytes <= 0) return `${p.phase}...`;
  const filled = Math.min(BAR_WIDTH, Math.round((BAR_WIDTH * p.doneBytes) / p.totalBytes));
  const pct = Math.min(100, (100 * p.doneBytes) / p.totalBytes);
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${pct.toFixed(0)}% ${p.phase} · ${formatBytes(p.doneBytes)} of ${formatBytes(p.totalBytes)}`;
}
