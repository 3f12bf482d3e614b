export { Jobs } from './Jobs.js';
