export { ShortcutsHelp } from './ShortcutsHelp.js';
