/*
 * Charts drawn on the server as SVG: no client JavaScript. Each chart is a picture for sighted readers
 * (aria-hidden); the table printed beside it carries the same numbers, with links, for screen readers,
 * keyboards and reports. Colours always come with a text legend, never alone.
 */

export interface ChartSeries {
  key: string;
  label: string;
  /** Fill colour; at least 3:1 against white (WCAG non-text contrast). */
  color: string;
  values: number[];
}

/** A round axis maximum: 1, 2 or 5 times a power of ten, at least `value`. */
export function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].find((step) => step * power >= value) ?? 10) * power;
}

const WIDTH = 720;
const HEIGHT = 220;
const LEFT = 44;
const BOTTOM = 24;
const TOP = 8;

export function Legend({ series }: { series: Array<Pick<ChartSeries, "key" | "label" | "color">> }) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700" aria-hidden="true">
      {series.map((item) => (
        <li key={item.key} className="flex items-center gap-1.5">
          <span className="inline-block h-3 w-3 rounded-sm print:border print:border-slate-500" style={{ backgroundColor: item.color }} />
          {item.label}
        </li>
      ))}
    </ul>
  );
}

/** Stacked bars, one per label (a day), the series stacked bottom-up in the order given. */
export function StackedBarChart({
  labels,
  series,
  formatNumber,
}: {
  labels: string[];
  series: ChartSeries[];
  formatNumber: (n: number) => string;
}) {
  const totals = labels.map((_, index) => series.reduce((sum, item) => sum + (item.values[index] ?? 0), 0));
  const max = niceMax(Math.max(0, ...totals));
  const plotWidth = WIDTH - LEFT - 4;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = plotWidth / Math.max(1, labels.length);
  const barWidth = Math.max(2, slot * 0.7);
  const y = (value: number) => TOP + plotHeight - (value / max) * plotHeight;
  const labelEvery = Math.ceil(labels.length / 10);
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-auto w-full" aria-hidden="true" focusable="false" data-chart="stacked-bars">
      {[0, 0.5, 1].map((fraction) => (
        <g key={fraction}>
          <line x1={LEFT} x2={WIDTH - 4} y1={y(max * fraction)} y2={y(max * fraction)} stroke="#cbd5e1" strokeWidth={1} />
          <text x={LEFT - 6} y={y(max * fraction) + 4} textAnchor="end" fontSize={11} fill="#475569">
            {formatNumber(max * fraction)}
          </text>
        </g>
      ))}
      {labels.map((label, index) => {
        let base = 0;
        const x = LEFT + index * slot + (slot - barWidth) / 2;
        return (
          <g key={label}>
            {series.map((item) => {
              const value = item.values[index] ?? 0;
              if (value === 0) return null;
              const top = y(base + value);
              const height = y(base) - top;
              base += value;
              return (
                <rect key={item.key} x={x} y={top} width={barWidth} height={height} fill={item.color} stroke="#fff" strokeWidth={0.5} />
              );
            })}
            {index % labelEvery === 0 ? (
              <text x={x + barWidth / 2} y={HEIGHT - 6} textAnchor="middle" fontSize={11} fill="#475569">
                {label}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}

/** Horizontal bars, one per row, with the value written at the end of each bar. */
export function HorizontalBarChart({
  rows,
  formatNumber,
}: {
  rows: Array<{ key: string; label: string; value: number; color: string }>;
  formatNumber: (n: number) => string;
}) {
  const rowHeight = 26;
  const labelWidth = 130;
  const width = 520;
  const height = rows.length * rowHeight + 4;
  const max = Math.max(1, ...rows.map((row) => row.value));
  const plot = width - labelWidth - 60;
  return (
    <svg viewBox={`0 0 ${width} ${height}`} className="h-auto w-full max-w-xl" aria-hidden="true" focusable="false" data-chart="bars">
      {rows.map((row, index) => {
        const barLength = (row.value / max) * plot;
        const top = index * rowHeight + 4;
        return (
          <g key={row.key}>
            <text x={labelWidth - 8} y={top + 14} textAnchor="end" fontSize={12} fill="#334155">
              {row.label}
            </text>
            <rect x={labelWidth} y={top} width={Math.max(row.value > 0 ? 2 : 0, barLength)} height={rowHeight - 8} fill={row.color} />
            <text x={labelWidth + barLength + 6} y={top + 14} fontSize={12} fill="#0f172a">
              {formatNumber(row.value)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
