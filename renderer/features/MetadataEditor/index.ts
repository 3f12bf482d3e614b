export { MetadataEditor } from './MetadataEditor.js';
