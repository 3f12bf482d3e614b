interface Props {
  values: number[];
  width?: number;
  height?: number;
  label: string;
  testId?: string;
}

/** A small SVG line of recent values, scaled to its own maximum; its text alternative gives the range and the latest value. */
export function Sparkline({ values, width = 120, height = 28, label, testId }: Props) {
  const max = Math.max(1e-9, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const figure = (v: number): string => v.toLocaleString('en-US', { maximumFractionDigits: 1 });
  const described = values.length === 0 ? `${label}: no figures yet` : `${label}: from ${figure(Math.min(...values))} to ${figure(Math.max(...values))}, now ${figure(values[values.length - 1]!)}`;
  const points = values.map((v, i) => `${(i * step).toFixed(1)},${(height - (v / max) * (height - 2) - 1).toFixed(1)}`).join(' ');
  return (
    <svg className="sparkline" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={described} data-testid={testId}>
      {values.length > 1 && <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" />}
    </svg>
  );
}
