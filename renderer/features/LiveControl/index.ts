export { LiveControl } from './LiveControl.js';
