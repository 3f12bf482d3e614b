import type { ExporterMap } from './exportManager.js';

/**
 * The export formats this build offers, shared by the web host and the desktop app. The exporters
 * themselves live in electron/engine/export/; a format missing here answers 'unsupported'.
 */
export const EXPORTERS: ExporterMap = {};
