export { Sparkline } from './Sparkline.js';
