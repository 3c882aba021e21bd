'use client';

import { useQuery } from '@tanstack/react-query';
import { columnsOf, numeric, TablePanel } from '@/app/_kit/DataTable';
import { formatCount, formatDateTime, formatPercent, formatUsd, formatUsualDuration } from '@/app/_kit/format';
import layout from '@/app/_kit/layout.module.css';
import { RelativeTime } from '@/app/_kit/RelativeTime';
import { StatusBadge } from '@/app/_kit/StatusBadge';
import { EmptyState } from '@/app/_kit/states';
import text from '@/app/_kit/text.module.css';
import { providerCell, SwapRoute, TransactionLink } from '../../_components/cells';
import { Kpi, KpiGrid } from '../../_components/Kpi';
import { QueryState } from '../../_components/states';
import { type RouterOutputs, useTRPC } from '../../_trpc/client';
import { OperationsTrends } from './OperationsTrends';
import styles from './operations.module.css';
import { ScheduledJobs } from './ScheduledJobs';

type Overview = RouterOutputs['operations']['overview'];

const ms = (value: number | null) => (value == null ? '—' : `${formatCount(value)} ms`);

const provider = columnsOf<Overview['providers'][number]>();
const providerColumns = provider.columns([
  provider.accessor('provider', { header: 'Provider', meta: { rowHeader: true }, ...providerCell }),
  provider.accessor('enabled', {
    header: 'State',
    cell: ({ getValue }) => (
      <StatusBadge status={getValue() ? 'ok' : 'expired'} label={getValue() ? 'enabled' : 'disabled'} />
    ),
  }),
  provider.accessor('quoteCalls', { header: 'Quotes', ...numeric(formatCount) }),
  provider.accessor('latencyP50Ms', { header: 'p50 latency', ...numeric(ms) }),
  provider.accessor('latencyP95Ms', { header: 'p95 latency', ...numeric(ms) }),
  provider.accessor('errorRate', {
    header: 'Error rate',
    meta: { numeric: true },
    cell: ({ getValue }) => {
      const rate = getValue();
      return rate != null && rate > 0.2 ? (
        <StatusBadge status={formatPercent(rate)} tone="failed" />
      ) : (
        formatPercent(rate)
      );
    },
  }),
  provider.accessor('otherFailures', { header: 'Lock, execute and status failures', ...numeric(formatCount) }),
  provider.accessor('breaker', {
    header: 'Breaker',
    cell: (c) => <span className={text.muted}>{c.getValue() ?? 'disabled'}</span>,
  }),
]);

type Queue = Overview['queues'][number];
const queue = columnsOf<Queue>();
const countOrDash = (value: number | null) =>
  value == null ? <span className={text.muted}>—</span> : formatCount(value);
/** A job count; a queue whose counts could not be read (Redis down) shows a dash. */
const countColumn = (id: string, header: string, pick: (counts: NonNullable<Queue['counts']>) => number) =>
  queue.accessor((q: Queue) => (q.counts ? pick(q.counts) : null), { id, header, ...numeric(countOrDash) });
const queueColumns = queue.columns([
  queue.accessor('name', { header: 'Queue', meta: { rowHeader: true } }),
  countColumn('waiting', 'Waiting', (c) => c.waiting + c.prioritized),
  countColumn('active', 'Active', (c) => c.active),
  countColumn('delayed', 'Delayed', (c) => c.delayed),
  queue.accessor((q: Queue) => q.counts?.failed ?? null, {
    id: 'failed',
    header: 'Failed',
    ...numeric((failed: number | null) =>
      failed ? <StatusBadge status={formatCount(failed)} tone="failed" /> : countOrDash(failed),
    ),
  }),
  countColumn('completed', 'Completed (kept)', (c) => c.completed),
  queue.display({
    id: 'latestFailure',
    header: 'Latest failure',
    meta: { wrap: true },
    cell: ({ row: { original: q } }) => {
      if (!q.counts) return <StatusBadge status="Redis unavailable" tone="failed" />;
      const latest = q.recentFailures[0];
      if (!latest) return <span className={text.muted}>none</span>;
      return (
        <span title={latest.reason ?? ''}>
          {latest.name}: {(latest.reason ?? 'no reason').slice(0, 60)}{' '}
          <span className={text.muted}>
            <RelativeTime value={latest.failedAt} />
          </span>
        </span>
      );
    },
  }),
]);

const stale = columnsOf<Overview['stale'][number]>();
const staleColumns = stale.columns([
  stale.accessor('id', { header: 'Transaction', cell: (c) => <TransactionLink id={c.getValue()} /> }),
  stale.accessor('provider', { header: 'Provider', ...providerCell }),
  stale.display({
    id: 'route',
    header: 'Route',
    cell: ({ row: { original: tx } }) => (
      <SwapRoute srcAmount={tx.srcAmount} srcSymbol={tx.srcSymbol} dstSymbol={tx.dstSymbol} />
    ),
  }),
  stale.accessor('amountUsd', { header: 'USD', ...numeric(formatUsd) }),
  stale.accessor('createdAt', { header: 'Created', cell: (c) => formatDateTime(c.getValue()) }),
]);

const routeTime = columnsOf<Overview['routeTimes'][number]>();
const routeTimeColumns = routeTime.columns([
  routeTime.accessor('provider', { header: 'Provider', meta: { rowHeader: true }, ...providerCell }),
  routeTime.accessor('swaps', { header: 'Settled swaps', ...numeric(formatCount) }),
  routeTime.accessor('promised', { header: 'Shown our p90', ...numeric(formatCount) }),
  routeTime.accessor('keptShare', {
    header: 'Done within the p90 shown',
    cell: ({ getValue }) => <KeptBar share={getValue()} />,
  }),
  routeTime.accessor('medianP50ErrorSeconds', {
    header: 'Median p50 error',
    ...numeric((seconds: number | null) => (seconds == null ? '—' : formatUsualDuration(seconds))),
  }),
  routeTime.accessor('estimatesKeptShare', {
    header: "Within the provider's estimate",
    meta: { numeric: true },
    cell: ({ row: { original: route } }) =>
      route.estimatesKeptShare == null ? (
        <span className={text.muted}>none shown</span>
      ) : (
        `${formatPercent(route.estimatesKeptShare, 0)} of ${formatCount(route.estimates)}`
      ),
  }),
]);

/** The share of promises kept as a bar against the 90 % goal, with the figure in words beside it. */
function KeptBar({ share }: { share: number | null }) {
  if (share == null) return <span className={text.muted}>no swap was shown one</span>;
  return (
    <span className={styles.kept}>
      <span className={styles.keptTrack} aria-hidden="true">
        <span
          className={share >= 0.9 ? styles.keptFill : `${styles.keptFill} ${styles.keptShort}`}
          style={{ width: `${Math.round(share * 100)}%` }}
        />
        <span className={styles.keptGoal} />
      </span>
      {formatPercent(share)}
      {share < 0.9 ? <StatusBadge status="below 90 %" tone="failed" /> : null}
    </span>
  );
}

export function OperationsView() {
  const trpc = useTRPC();
  const query = useQuery(trpc.operations.overview.queryOptions(undefined, { refetchInterval: 30_000 }));

  return (
    <QueryState query={query} loading="Loading operations…">
      {({ kpis, providers, queues, jobs, stale, routeTimes }) => (
        <div className={layout.stack}>
          <KpiGrid label="Last 24 hours">
            <Kpi label="Swaps (24 h)" value={formatCount(kpis.swaps)} />
            <Kpi
              label="In flight"
              value={formatCount(kpis.inFlight)}
              hint={`${formatCount(kpis.awaitingDeposit)} more awaiting their deposit`}
            />
            <Kpi
              label="Success rate"
              value={formatPercent(kpis.successRate)}
              hint={`${kpis.succeeded} ok · ${kpis.failed} failed · ${kpis.refunded} refunded`}
            />
            <Kpi label="Settled volume" value={formatUsd(kpis.volumeUsd)} hint="successful swaps, USD at execute" />
            <Kpi label="Stale" value={formatCount(kpis.stale)} hint="in flight past the tracking window" />
          </KpiGrid>

          <TablePanel
            title="Provider health"
            note="quotes in the last hour"
            columns={providerColumns}
            data={providers}
          />
          <TablePanel
            title="Route times"
            note="per provider over the route-time window: our p90's promise kept (goal 90 %), how far off our p50 was, and how the provider's estimate held where we had too few swaps"
            columns={routeTimeColumns}
            data={routeTimes}
            empty={<EmptyState title="No settled swaps in the window yet" />}
          />
          <TablePanel title="Queues" note="BullMQ job counts" columns={queueColumns} data={queues} />
          <section aria-label="Trends" className={layout.stack}>
            <OperationsTrends />
          </section>
          <ScheduledJobs jobs={jobs} />
          <TablePanel
            title="Stale transactions"
            note="pending longer than the tracking window; oldest first"
            columns={staleColumns}
            data={stale}
            empty={
              <EmptyState title="Nothing is stale">Every pending swap is still inside its tracking window.</EmptyState>
            }
          />
        </div>
      )}
    </QueryState>
  );
}
