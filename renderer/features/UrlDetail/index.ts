export { UrlDetailPanel, robotsText } from './UrlDetail.js';
