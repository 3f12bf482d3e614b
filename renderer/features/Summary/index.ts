export { Summary } from './Summary.js';
