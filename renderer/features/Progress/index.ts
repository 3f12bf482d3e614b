export { Progress } from './Progress.js';
