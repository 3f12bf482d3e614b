export { Confirm } from './Confirm.js';
