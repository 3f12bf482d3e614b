import type { ExportFormat } from '../../../shared/metadata.js';
import { bagitExporter } from './bagit.js';
import { exportMirrorZip } from './mirrorZip.js';
import type { Exporter } from './types.js';
import { exportWacz } from './wacz.js';
import { exportWarc } from './warcConcat.js';

/** Every export format by name: the CLI, the web host and the desktop app all offer these. */
export const EXPORTERS: Record<ExportFormat, Exporter> = {
  wacz: exportWacz,
  warc: exportWarc,
  zip: exportMirrorZip,
  // A bag's payload is the WACZ (and, when asked, the mirror).
  bagit: bagitExporter(exportWacz),
};
