export { UrlDetailPanel } from './UrlDetail.js';
