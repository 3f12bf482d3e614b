import { plural } from '../../lib/format.js';

/** A bin's range as a person reads it: `0–10%`, …, `90–100%`. */
export function binLabel(i: number): string {
  return `${i * 10}–${(i + 1) * 10}%`;
}

/**
 * The analysed pages by score (the lower of text and screenshot match), in ten bins. Each bar is
 * drawn to scale and says its count in words, so the figure reads the same without the bars.
 */
export function Histogram({ bins }: { bins: number[] }) {
  const max = Math.max(1, ...bins);
  return (
    <figure className="qa-histogram" data-testid="qa-histogram">
      <figcaption>Pages by score (the lower of text and screenshot match)</figcaption>
      <ol className="qa-bins">
        {bins.map((n, i) => (
          <li key={i} className="qa-bin" data-testid="qa-bin" data-bin={i} data-count={n}>
            <span className="qa-bin-count" aria-hidden="true">
              {n}
            </span>
            <span className="qa-bin-track" aria-hidden="true">
              <span className="qa-bin-bar" style={{ height: `${Math.round((n / max) * 100)}%` }} />
            </span>
            <span className="qa-bin-label">
              {binLabel(i)}
              <span className="sr-only">: {plural(n, 'page')}</span>
            </span>
          </li>
        ))}
      </ol>
    </figure>
  );
}
