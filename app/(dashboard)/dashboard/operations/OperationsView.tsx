'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import styles from '../../_components/dash.module.css';
import { formatCount, formatDateTime, formatPercent, formatRelative, formatUsd } from '../../_components/format';
import { Kpi, Panel } from '../../_components/layout-parts';
import { describeError } from '../../_components/query-error';
import { StatusBadge } from '../../_components/StatusBadge';
import { EmptyState, ErrorState, LoadingState } from '../../_components/states';
import { useTRPC } from '../../_trpc/client';
import { ScheduledJobs } from './ScheduledJobs';

const ms = (value: number | null) => (value == null ? '—' : `${formatCount(value)} ms`);

export function OperationsView() {
  const trpc = useTRPC();
  const query = useQuery(trpc.operations.overview.queryOptions(undefined, { refetchInterval: 30_000 }));

  if (query.isPending) {
    return (
      <div className={styles.panel}>
        <LoadingState label="Loading operations…" rows={10} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className={styles.panel}>
        <ErrorState message={describeError(query.error).message} onRetry={() => query.refetch()} />
      </div>
    );
  }
  const { kpis, providers, queues, jobs, stale } = query.data;
  return (
    <div className={styles.stack}>
      <section aria-label="Last 24 hours" className={styles.kpiGrid}>
        <Kpi label="Swaps (24 h)" value={formatCount(kpis.swaps)} hint={`${formatCount(kpis.pending)} pending`} />
        <Kpi
          label="Success rate"
          value={formatPercent(kpis.successRate)}
          hint={`${kpis.succeeded} ok · ${kpis.failed} failed · ${kpis.refunded} refunded`}
        />
        <Kpi label="Settled volume" value={formatUsd(kpis.volumeUsd)} hint="successful swaps, USD at execute" />
        <Kpi label="Stale" value={formatCount(kpis.stale)} hint="pending past the tracking window" />
      </section>

      <Panel title="Provider health" note="quotes in the last hour">
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">State</th>
                <th scope="col" className={styles.num}>
                  Quotes
                </th>
                <th scope="col" className={styles.num}>
                  p50 latency
                </th>
                <th scope="col" className={styles.num}>
                  p95 latency
                </th>
                <th scope="col" className={styles.num}>
                  Error rate
                </th>
                <th scope="col" className={styles.num}>
                  Lock/execute/status failures
                </th>
                <th scope="col">Breaker</th>
              </tr>
            </thead>
            <tbody>
              {providers.map((p) => (
                <tr key={p.provider}>
                  <th scope="row">{p.provider}</th>
                  <td>
                    <StatusBadge status={p.enabled ? 'ok' : 'expired'} label={p.enabled ? 'enabled' : 'disabled'} />
                  </td>
                  <td className={styles.num}>{formatCount(p.quoteCalls)}</td>
                  <td className={styles.num}>{ms(p.latencyP50Ms)}</td>
                  <td className={styles.num}>{ms(p.latencyP95Ms)}</td>
                  <td className={styles.num}>
                    {p.errorRate != null && p.errorRate > 0.2 ? (
                      <StatusBadge status="FAILED" label={formatPercent(p.errorRate)} />
                    ) : (
                      formatPercent(p.errorRate)
                    )}
                  </td>
                  <td className={styles.num}>{formatCount(p.otherFailures)}</td>
                  <td className={styles.muted}>{p.breaker ?? 'disabled'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Panel>

      <Panel title="Queues" note="BullMQ job counts">
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Queue</th>
                <th scope="col" className={styles.num}>
                  Waiting
                </th>
                <th scope="col" className={styles.num}>
                  Active
                </th>
                <th scope="col" className={styles.num}>
                  Delayed
                </th>
                <th scope="col" className={styles.num}>
                  Failed
                </th>
                <th scope="col" className={styles.num}>
                  Completed (kept)
                </th>
                <th scope="col">Latest failure</th>
              </tr>
            </thead>
            <tbody>
              {queues.map((q) => (
                <tr key={q.name}>
                  <th scope="row">{q.name}</th>
                  {q.counts ? (
                    <>
                      <td className={styles.num}>{formatCount(q.counts.waiting + q.counts.prioritized)}</td>
                      <td className={styles.num}>{formatCount(q.counts.active)}</td>
                      <td className={styles.num}>{formatCount(q.counts.delayed)}</td>
                      <td className={styles.num}>
                        {q.counts.failed > 0 ? (
                          <StatusBadge status="FAILED" label={formatCount(q.counts.failed)} />
                        ) : (
                          '0'
                        )}
                      </td>
                      <td className={styles.num}>{formatCount(q.counts.completed)}</td>
                      <td>
                        {q.recentFailures[0] ? (
                          <span title={q.recentFailures[0].reason ?? ''}>
                            {q.recentFailures[0].name}: {(q.recentFailures[0].reason ?? 'no reason').slice(0, 60)}{' '}
                            <span className={styles.muted}>{formatRelative(q.recentFailures[0].failedAt)}</span>
                          </span>
                        ) : (
                          <span className={styles.muted}>none</span>
                        )}
                      </td>
                    </>
                  ) : (
                    <td colSpan={6}>
                      <StatusBadge status="FAILED" label="Redis unavailable" />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Panel>

      <ScheduledJobs jobs={jobs} />

      <Panel title="Stale transactions" note="pending longer than the tracking window; oldest first">
        {stale.length === 0 ? (
          <EmptyState title="Nothing is stale">Every pending swap is still inside its tracking window.</EmptyState>
        ) : (
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">Transaction</th>
                  <th scope="col">Provider</th>
                  <th scope="col">Route</th>
                  <th scope="col" className={styles.num}>
                    USD
                  </th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {stale.map((tx) => (
                  <tr key={tx.id}>
                    <td>
                      <Link className={`${styles.rowLink} ${styles.mono}`} href={`/dashboard/transactions/${tx.id}`}>
                        {tx.id}
                      </Link>
                    </td>
                    <td>{tx.provider}</td>
                    <td>
                      {tx.srcAmount} {tx.srcSymbol} → {tx.dstSymbol}
                    </td>
                    <td className={styles.num}>{formatUsd(tx.amountUsd)}</td>
                    <td>{formatDateTime(tx.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
    </div>
  );
}
