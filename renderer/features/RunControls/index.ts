export { CancelRun, RunControls } from './RunControls.js';
