export { JobForm } from './JobForm.js';
