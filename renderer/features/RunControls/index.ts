export { RunControls } from './RunControls.js';
