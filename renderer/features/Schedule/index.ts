export { Schedule } from './Schedule.js';
