'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { columnsOf, numeric, TablePanel } from '@/app/_kit/DataTable';
import { formatCount, formatDateTime, formatPercent, formatSecondsBucket, truncateMiddle } from '@/app/_kit/format';
import { Panel } from '@/app/_kit/Panel';
import { StatusBadge } from '@/app/_kit/StatusBadge';
import { EmptyState } from '@/app/_kit/states';
import text from '@/app/_kit/text.module.css';
import { chainName } from '@/server/catalog/names';
import type { Range } from '@/server/schemas/ranges';
import { providerCell, TransactionLink } from '../../_components/cells';
import { CHART, TimeSeriesChart } from '../../_components/charts';
import { Kpi, KpiGrid } from '../../_components/Kpi';
import { RangedView } from '../../_components/RangePicker';
import { type RouterOutputs, useTRPC } from '../../_trpc/client';

type Activity = RouterOutputs['locks']['activity'];

const byProvider = columnsOf<Activity['byProvider'][number]>();
const byProviderColumns = byProvider.columns([
  byProvider.accessor('provider', { header: 'Provider', meta: { rowHeader: true }, ...providerCell }),
  byProvider.accessor('created', { header: 'Created', ...numeric(formatCount) }),
  byProvider.accessor('executed', { header: 'Executed', ...numeric(formatCount) }),
  byProvider.accessor('expired', { header: 'Expired', ...numeric(formatCount) }),
  byProvider.accessor('conversion', { header: 'Conversion', ...numeric(formatPercent) }),
  byProvider.accessor('medianSecondsToExecute', { header: 'Median time to execute', ...numeric(formatSecondsBucket) }),
]);

const recent = columnsOf<Activity['recent'][number]>();
const recentColumns = recent.columns([
  recent.accessor('id', { header: 'Lock', cell: (c) => <span className={text.mono}>{c.getValue()}</span> }),
  recent.accessor('outcome', { header: 'Outcome', cell: (c) => <StatusBadge status={c.getValue()} /> }),
  recent.accessor('provider', { header: 'Provider', ...providerCell }),
  recent.display({
    id: 'route',
    header: 'Route',
    meta: { breakable: true },
    cell: ({ row: { original: lock } }) => (
      <>
        {lock.amount}{' '}
        <span className={text.muted}>
          {chainName(lock.srcChain)} → {chainName(lock.dstChain)}
        </span>
      </>
    ),
  }),
  recent.accessor('createdAt', {
    header: 'Created',
    meta: { breakable: true },
    cell: (c) => formatDateTime(c.getValue()),
  }),
  recent.accessor('transactionId', {
    header: 'Transaction',
    cell: ({ getValue }) => {
      const id = getValue();
      return id ? (
        <TransactionLink id={id}>{truncateMiddle(id)}</TransactionLink>
      ) : (
        <span className={text.muted}>—</span>
      );
    },
  }),
]);

export function LocksView() {
  const trpc = useTRPC();
  const [range, setRange] = useState<Range>('7d');
  const query = useQuery(trpc.locks.activity.queryOptions({ range }, { placeholderData: keepPreviousData }));

  return (
    <RangedView range={range} onRangeChange={setRange} query={query} loading="Loading lock activity…">
      {(data) => (
        <>
          <KpiGrid>
            <Kpi label="Locks created" value={formatCount(data.totals.created)} />
            <Kpi label="Executed" value={formatCount(data.totals.executed)} />
            <Kpi label="Expired unused" value={formatCount(data.totals.expired)} />
            <Kpi label="Lock → execute" value={formatPercent(data.totals.conversion)} hint="executed / created" />
          </KpiGrid>
          <Panel title="Locks over time" note={`per ${data.bucket}, UTC`}>
            {data.totals.created === 0 && data.totals.expired === 0 ? (
              <EmptyState title="No locks in this range">Locks appear here as integrators lock quotes.</EmptyState>
            ) : (
              <TimeSeriesChart
                data={data.series}
                bucket={data.bucket}
                kind="bar"
                series={[
                  { key: 'created', label: 'Created', colour: CHART.blue },
                  { key: 'executed', label: 'Executed', colour: CHART.green },
                  { key: 'expired', label: 'Expired', colour: CHART.grey },
                ]}
                summary={`${data.totals.created} locks created, ${data.totals.executed} executed and ${data.totals.expired} expired in this range.`}
              />
            )}
          </Panel>
          <TablePanel
            title="By provider"
            columns={byProviderColumns}
            data={data.byProvider}
            empty="No locks in this range"
          />
          <TablePanel
            title="Recent locks"
            note="latest 20, any range"
            columns={recentColumns}
            data={data.recent}
            empty="No locks yet"
          />
        </>
      )}
    </RangedView>
  );
}
