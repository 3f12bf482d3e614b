import type { ExportFormat } from '../../../shared/metadata.js';
import type { Exporter } from './types.js';
import { exportWacz } from './wacz.js';
import { exportWarc } from './warcConcat.js';

/** The exporter of each format, shared by the CLI and the app host; a missing format is not built in yet. */
export const EXPORTERS: Partial<Record<ExportFormat, Exporter>> = {
  wacz: exportWacz,
  warc: exportWarc,
};
