interface Props {
  values: number[];
  width?: number;
  height?: number;
  label: string;
  testId?: string;
}

/** A small SVG line of recent values, scaled to its own maximum. */
export function Sparkline({ values, width = 120, height = 28, label, testId }: Props) {
  const max = Math.max(1e-9, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const points = values.map((v, i) => `${(i * step).toFixed(1)},${(height - (v / max) * (height - 2) - 1).toFixed(1)}`).join(' ');
  return (
    <svg className="sparkline" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} data-testid={testId}>
      {values.length > 1 && <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" />}
    </svg>
  );
}
