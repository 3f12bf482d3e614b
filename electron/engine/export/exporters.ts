import path from 'node:path';
import type { ExportFormat } from '../../../shared/metadata.js';
import { bagitExporter } from './bagit.js';
import { writeErrorOf } from './errors.js';
import { sweepExportTemps } from './exportTemp.js';
import { exportMirrorZip } from './mirrorZip.js';
import type { Exporter } from './types.js';
import { exportWacz } from './wacz.js';
import { exportWarc } from './warcConcat.js';

/**
 * An exporter as the CLI and the app run it: work folders orphaned by killed exports beside the
 * output are removed first, and a full or read-only disk ends in an ExportWriteError naming the
 * output (the exporter itself has removed what it had written).
 */
function guarded(exporter: Exporter): Exporter {
  return async (archive, outPath, opts) => {
    await sweepExportTemps(path.dirname(path.resolve(outPath)));
    try {
      return await exporter(archive, outPath, opts);
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      throw writeErrorOf(e, path.resolve(outPath)) ?? e;
    }
  };
}

/** Every export format by name: the CLI, the web host and the desktop app all offer these. */
export const EXPORTERS: Record<ExportFormat, Exporter> = {
  wacz: guarded(exportWacz),
  warc: guarded(exportWarc),
  zip: guarded(exportMirrorZip),
  // A bag's payload is the WACZ (and, when asked, the mirror).
  bagit: guarded(bagitExporter(exportWacz)),
};
