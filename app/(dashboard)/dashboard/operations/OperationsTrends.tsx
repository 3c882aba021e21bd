'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatCount } from '@/app/_kit/format';
import layout from '@/app/_kit/layout.module.css';
import { Panel } from '@/app/_kit/Panel';
import { EmptyState } from '@/app/_kit/states';
import { providerName } from '@/server/catalog/names';
import type { Range } from '@/server/schemas/ranges';
import { TimeSeriesChart } from '../../_components/charts';
import { RangedView } from '../../_components/RangePicker';
import { type RouterOutputs, useTRPC } from '../../_trpc/client';

type Trends = RouterOutputs['operations']['trends'];
type Series<P> = { name: string; points: ({ bucket: Date } & P)[] };

/** One chart row per bucket, one key per series: the shape recharts draws. */
function byBucket<P>(series: Series<P>[], value: (point: P) => number | null) {
  const first = series[0]?.points ?? [];
  return first.map((point, i) => ({
    bucket: point.bucket,
    ...Object.fromEntries(series.map((s) => [s.name, value(s.points[i] as P)])),
  }));
}

const ms = (value: number) => `${formatCount(value)} ms`;
const percent = (value: number) => `${value}%`;

export function OperationsTrends() {
  const trpc = useTRPC();
  const [range, setRange] = useState<Range>('24h');
  const query = useQuery(trpc.operations.trends.queryOptions({ range }, { placeholderData: keepPreviousData }));
  return (
    <RangedView range={range} onRangeChange={setRange} query={query} loading="Loading trends…">
      {(data) => <TrendCharts data={data} />}
    </RangedView>
  );
}

type ProviderPoint = Trends['providers'][number]['points'][number];

function TrendCharts({ data }: { data: Trends }) {
  const providers = data.providers.map((p) => ({ name: p.provider, points: p.points }));
  const queues = data.queues.map((q) => ({ name: q.queue, points: q.points }));
  const note = `per ${data.bucket}, UTC`;
  const providerChart = (
    title: string,
    value: (point: ProviderPoint) => number | null,
    valueFormatter: (value: number) => string,
    summary: string,
    panelNote = note,
  ) => (
    <Panel title={title} note={panelNote}>
      {providers.length === 0 ? (
        <EmptyState title="Not enough data yet">No quotes were served in this range.</EmptyState>
      ) : (
        <TimeSeriesChart
          data={byBucket(providers, value)}
          bucket={data.bucket}
          series={providers.map((p) => ({ key: p.name, label: providerName(p.name) }))}
          valueFormatter={valueFormatter}
          summary={summary}
        />
      )}
    </Panel>
  );
  const hasQueueSamples = queues.some((q) => q.points.some((p) => p.waiting !== null));
  return (
    <div className={layout.grid2}>
      {providerChart('Quote latency, p50', (p) => p.p50Ms, ms, 'Median quote latency per provider over time.')}
      {providerChart('Quote latency, p95', (p) => p.p95Ms, ms, '95th percentile quote latency per provider over time.')}
      {providerChart(
        'Quote error rate',
        (p) => (p.errorRate === null ? null : Math.round(p.errorRate * 1000) / 10),
        percent,
        'Share of quote calls per provider that failed, over time.',
        `${note}; "no route" is not an error`,
      )}
      <Panel title="Queue depth" note={`peak jobs waiting per ${data.bucket}, sampled every minute`}>
        {hasQueueSamples ? (
          <TimeSeriesChart
            data={byBucket(queues, (p) => p.waiting)}
            bucket={data.bucket}
            series={queues.map((q) => ({ key: q.name, label: q.name }))}
            summary="The most jobs waiting in each queue, over time."
          />
        ) : (
          <EmptyState title="Not enough data yet">The worker records queue depth every minute.</EmptyState>
        )}
      </Panel>
    </div>
  );
}
