export { FocusReportView } from './FocusReportView.js';
