export { Toasts } from './Toasts.js';
