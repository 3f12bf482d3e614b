export { PageAnalysis } from './PageAnalysis.js';
