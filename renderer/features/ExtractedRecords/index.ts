export { ExtractedRecords } from './ExtractedRecords.js';
