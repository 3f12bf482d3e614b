export { Library } from './Library.js';
