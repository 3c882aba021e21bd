'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { columnsOf, DataTable, numeric, TablePanel } from '@/app/_kit/DataTable';
import { formatCount, formatDateTime } from '@/app/_kit/format';
import layout from '@/app/_kit/layout.module.css';
import { Panel } from '@/app/_kit/Panel';
import { EmptyState } from '@/app/_kit/states';
import text from '@/app/_kit/text.module.css';
import type { Range } from '@/server/schemas/ranges';
import { TimeSeriesChart } from '../../_components/charts';
import { Kpi, KpiGrid } from '../../_components/Kpi';
import { RangedView } from '../../_components/RangePicker';
import { type RouterOutputs, useTRPC } from '../../_trpc/client';

type Activity = RouterOutputs['rateLimits']['activity'];

const client = columnsOf<Activity['topClients'][number]>();
const clientColumns = client.columns([
  client.accessor('clientHash', {
    header: 'Client hash',
    cell: (c) => (
      <span className={text.mono} title={c.getValue()}>
        {c.getValue().slice(0, 16)}
      </span>
    ),
  }),
  client.accessor('hits', { header: '429s', ...numeric(formatCount) }),
  client.accessor((c) => c.routeClasses.join(', '), {
    id: 'routeClasses',
    header: 'Route classes',
    meta: { breakable: true },
  }),
  client.accessor('lastSeen', {
    header: 'Last seen',
    meta: { breakable: true },
    cell: (c) => formatDateTime(c.getValue()),
  }),
]);

type Limit = { routeClass: string; limit: number };
const limit = columnsOf<Limit>();
const limitColumns = (windowSeconds: number) =>
  limit.columns([
    limit.accessor('routeClass', { header: 'Route class', meta: { rowHeader: true } }),
    limit.accessor('limit', { header: `Requests per ${windowSeconds} s`, ...numeric(formatCount) }),
  ]);

export function RateLimitsView() {
  const trpc = useTRPC();
  const [range, setRange] = useState<Range>('24h');
  const query = useQuery(trpc.rateLimits.activity.queryOptions({ range }, { placeholderData: keepPreviousData }));

  return (
    <RangedView range={range} onRangeChange={setRange} query={query} loading="Loading rate-limit activity…">
      {(data) => (
        <>
          <KpiGrid>
            <Kpi label="429 responses" value={formatCount(data.total)} />
            <Kpi label="Clients limited" value={formatCount(data.topClients.length)} hint="top 10 shown below" />
            <Kpi label="Window" value={`${data.limits.windowSeconds} s`} hint="per client, per route class" />
          </KpiGrid>
          <Panel title="429s over time" note={`per ${data.bucket}, by route class, UTC`}>
            {data.total === 0 ? (
              <EmptyState title="No requests were rate limited in this range" />
            ) : (
              <TimeSeriesChart
                data={data.series.map((p) => ({ bucket: p.bucket, ...p.byClass }))}
                bucket={data.bucket}
                kind="bar"
                stacked
                series={data.routeClasses.map((c) => ({ key: c, label: c }))}
                summary={`${data.total} requests refused with 429 in this range.`}
              />
            )}
          </Panel>
          <div className={layout.grid2}>
            <TablePanel
              title="Top clients"
              note="client addresses are stored only as keyed hashes"
              columns={clientColumns}
              data={data.topClients}
              empty="No limited clients"
            />
            <Panel title="Limits in force" note="from the server configuration">
              <LimitsTable windowSeconds={data.limits.windowSeconds} perClient={data.limits.perClient} />
            </Panel>
          </div>
        </>
      )}
    </RangedView>
  );
}

function LimitsTable({ windowSeconds, perClient }: { windowSeconds: number; perClient: Record<string, number> }) {
  const columns = useMemo(() => limitColumns(windowSeconds), [windowSeconds]);
  const rows = useMemo(
    () => Object.entries(perClient).map(([routeClass, value]) => ({ routeClass, limit: value })),
    [perClient],
  );
  return <DataTable caption="Limits in force" columns={columns} data={rows} />;
}
