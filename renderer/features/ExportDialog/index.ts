export { ExportDialog } from './ExportDialog.js';
