export { Viewer } from './Viewer.js';
