export { ROW_HEIGHT, UrlLog } from './UrlLog.js';
