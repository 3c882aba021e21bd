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
import styles from './dash.module.css';
import { formatBucket } from './format';

export const SERIES_COLOURS = ['#4cc38a', '#6cb6ff', '#e5b454', '#ef5b5b', '#b69cff', '#5fd3d3'];

export interface SeriesSpec {
  key: string;
  label: string;
  colour?: string;
}

const axis = { stroke: '#8b98a9', fontSize: 12, tickLine: false, axisLine: { stroke: '#243040' } } as const;
const tooltipStyle = {
  contentStyle: { background: '#121821', border: '1px solid #243040', borderRadius: 8, color: '#e6edf3' },
  labelStyle: { color: '#8b98a9' },
  cursor: { fill: 'rgba(255,255,255,0.04)' },
} as const;

/**
 * A time series over dashboard buckets. `summary` is the screen-reader text: charts are decorative
 * for assistive technology, the tables on each page carry the same numbers.
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
  const rows = data.map((d) => ({ ...d, label: formatBucket(d.bucket, bucket) }));
  const common = (
    <>
      <CartesianGrid stroke="#1c2533" vertical={false} />
      <XAxis dataKey="label" {...axis} minTickGap={16} />
      <YAxis {...axis} allowDecimals={false} width={56} tickFormatter={valueFormatter} />
      <Tooltip {...tooltipStyle} formatter={valueFormatter ? (v) => valueFormatter(Number(v)) : undefined} />
      <Legend wrapperStyle={{ fontSize: 12, color: '#8b98a9' }} />
    </>
  );
  return (
    <figure className={styles.chart} style={{ margin: 0 }}>
      <figcaption className={styles.srOnly}>{summary}</figcaption>
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
