export { Captures } from './Captures.js';
