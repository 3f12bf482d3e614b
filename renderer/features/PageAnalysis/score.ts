/** A match (0..1) as a percentage with one decimal, or a dash where the page could not be compared. */
export function pct(x: number | null): string {
  return x === null ? '–' : `${(x * 100).toFixed(1)}%`;
}
