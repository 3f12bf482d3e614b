export { Report } from './Report.js';
