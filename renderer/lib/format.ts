/** The screens format through the shared vocabulary, so they say what the CLI says. */
export * from '../../shared/format.js';

/** URLs per second: one decimal below 10. */
export function formatRate(n: number): string {
  return n < 10 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US');
}
