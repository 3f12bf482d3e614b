export { Search } from './Search.js';
