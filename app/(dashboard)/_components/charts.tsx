'use client';

import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { VisuallyHidden } from '@/app/_kit/a11y';
import { formatBucket } from '@/app/_kit/format';
import { EmptyState } from '@/app/_kit/states';

/** Series colours, from the design tokens; SVG fills and strokes resolve CSS variables. */
export const CHART = {
  green: 'var(--accent)',
  blue: 'var(--info)',
  amber: 'var(--warn)',
  red: 'var(--danger)',
  violet: 'var(--violet)',
  teal: 'var(--teal)',
  grey: 'var(--muted)',
} as const;
const SERIES_COLOURS = [CHART.green, CHART.blue, CHART.amber, CHART.red, CHART.violet, CHART.teal];

export interface SeriesSpec {
  key: string;
  label: string;
  colour?: string;
}

const axis = { stroke: 'var(--muted)', fontSize: 12, tickLine: false, axisLine: { stroke: 'var(--border)' } } as const;
const tooltipStyle = {
  contentStyle: {
    background: 'var(--panel)',
    border: '1px solid var(--border)',
    borderRadius: 8,
    color: 'var(--text)',
  },
  labelStyle: { color: 'var(--muted)' },
  cursor: { fill: 'rgba(255,255,255,0.04)' },
} as const;

/** Whether any bucket has a value for any series: without one a chart is only empty axes. */
export const hasPoints = (data: Record<string, unknown>[], series: SeriesSpec[]) =>
  data.some((row) => series.some((s) => typeof row[s.key] === 'number'));

/**
 * A time series over dashboard buckets. `summary` is the screen-reader text: charts are decorative
 * for assistive technology, the tables on each page carry the same numbers. Every value is marked
 * with a dot: a line needs two neighbouring buckets, and a lone one (the first hour of data, or
 * one between empty buckets) would otherwise draw nothing while the axes scale to it.
 */
export function TimeSeriesChart({
  data,
  bucket,
  series,
  kind = 'area',
  stacked = false,
  summary,
  valueFormatter,
}: {
  data: ({ bucket: Date } & Record<string, unknown>)[];
  bucket: 'hour' | 'day';
  series: SeriesSpec[];
  kind?: 'area' | 'bar';
  stacked?: boolean;
  summary: string;
  valueFormatter?: (value: number) => string;
}) {
  if (!hasPoints(data, series)) {
    return <EmptyState title="Not enough data yet">The chart starts with the first recorded {bucket}.</EmptyState>;
  }
  const rows = data.map((d) => ({ ...d, label: formatBucket(d.bucket, bucket) }));
  const common = (
    <>
      <CartesianGrid stroke="var(--grid-line)" vertical={false} />
      <XAxis dataKey="label" {...axis} minTickGap={16} />
      <YAxis {...axis} allowDecimals={false} width={64} tickFormatter={valueFormatter} />
      <Tooltip {...tooltipStyle} formatter={valueFormatter ? (v) => valueFormatter(Number(v)) : undefined} />
      <Legend wrapperStyle={{ fontSize: 12, color: 'var(--muted)' }} />
    </>
  );
  return (
    <figure style={{ width: '100%', height: 260, margin: 0 }}>
      <figcaption>
        <VisuallyHidden>{summary}</VisuallyHidden>
      </figcaption>
      <div aria-hidden="true" style={{ width: '100%', height: '100%' }}>
        <ResponsiveContainer width="100%" height="100%">
          {kind === 'bar' ? (
            <BarChart data={rows} accessibilityLayer={false}>
              {common}
              {series.map((s, i) => (
                <Bar
                  key={s.key}
                  dataKey={s.key}
                  name={s.label}
                  fill={s.colour ?? SERIES_COLOURS[i % SERIES_COLOURS.length]}
                  stackId={stacked ? 'stack' : undefined}
                  maxBarSize={28}
                  isAnimationActive={false}
                />
              ))}
            </BarChart>
          ) : (
            <AreaChart data={rows} accessibilityLayer={false}>
              {common}
              {series.map((s, i) => {
                const colour = s.colour ?? SERIES_COLOURS[i % SERIES_COLOURS.length];
                return (
                  <Area
                    key={s.key}
                    type="monotone"
                    dataKey={s.key}
                    name={s.label}
                    stroke={colour}
                    fill={colour}
                    fillOpacity={0.14}
                    strokeWidth={2}
                    dot={{ r: 3, fill: colour, fillOpacity: 1, strokeWidth: 0 }}
                    activeDot={{ r: 5 }}
                    stackId={stacked ? 'stack' : undefined}
                    isAnimationActive={false}
                  />
                );
              })}
            </AreaChart>
          )}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
