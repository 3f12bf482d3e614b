export { ArchivePicker } from './ArchivePicker.js';
