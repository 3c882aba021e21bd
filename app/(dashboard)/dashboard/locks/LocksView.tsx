'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import type { Range } from '@/server/dashboard/schemas';
import { TimeSeriesChart } from '../../_components/charts';
import styles from '../../_components/dash.module.css';
import { formatCount, formatDateTime, formatDuration, formatPercent, shortHash } from '../../_components/format';
import { Kpi, Panel } from '../../_components/layout-parts';
import { describeError } from '../../_components/query-error';
import { RangePicker } from '../../_components/RangePicker';
import { StatusBadge } from '../../_components/StatusBadge';
import { EmptyState, ErrorState, LoadingState } from '../../_components/states';
import { useTRPC } from '../../_trpc/client';

export function LocksView() {
  const trpc = useTRPC();
  const [range, setRange] = useState<Range>('7d');
  const query = useQuery(trpc.locks.activity.queryOptions({ range }, { placeholderData: keepPreviousData }));

  return (
    <div className={styles.stack}>
      <div>
        <RangePicker value={range} onChange={setRange} />
      </div>
      {query.isPending ? (
        <div className={styles.panel}>
          <LoadingState label="Loading lock activity…" rows={8} />
        </div>
      ) : query.isError ? (
        <div className={styles.panel}>
          <ErrorState message={describeError(query.error).message} onRetry={() => query.refetch()} />
        </div>
      ) : (
        <>
          <div className={styles.kpiGrid}>
            <Kpi label="Locks created" value={formatCount(query.data.totals.created)} />
            <Kpi label="Executed" value={formatCount(query.data.totals.executed)} />
            <Kpi label="Expired unused" value={formatCount(query.data.totals.expired)} />
            <Kpi label="Lock → execute" value={formatPercent(query.data.totals.conversion)} hint="executed / created" />
          </div>
          <Panel title="Locks over time" note={`per ${query.data.bucket}, UTC`}>
            {query.data.totals.created === 0 && query.data.totals.expired === 0 ? (
              <EmptyState title="No locks in this range">Locks appear here as integrators lock quotes.</EmptyState>
            ) : (
              <TimeSeriesChart
                data={query.data.series}
                bucket={query.data.bucket}
                kind="bar"
                series={[
                  { key: 'created', label: 'Created', colour: '#6cb6ff' },
                  { key: 'executed', label: 'Executed', colour: '#4cc38a' },
                  { key: 'expired', label: 'Expired', colour: '#8b98a9' },
                ]}
                summary={`${query.data.totals.created} locks created, ${query.data.totals.executed} executed and ${query.data.totals.expired} expired in this range.`}
              />
            )}
          </Panel>
          <Panel title="By provider">
            {query.data.byProvider.length === 0 ? (
              <EmptyState title="No locks in this range" />
            ) : (
              <div className={styles.tableWrap}>
                <table className={styles.table}>
                  <thead>
                    <tr>
                      <th scope="col">Provider</th>
                      <th scope="col" className={styles.num}>
                        Created
                      </th>
                      <th scope="col" className={styles.num}>
                        Executed
                      </th>
                      <th scope="col" className={styles.num}>
                        Expired
                      </th>
                      <th scope="col" className={styles.num}>
                        Conversion
                      </th>
                      <th scope="col" className={styles.num}>
                        Median time to execute
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {query.data.byProvider.map((p) => (
                      <tr key={p.provider}>
                        <th scope="row">{p.provider}</th>
                        <td className={styles.num}>{formatCount(p.created)}</td>
                        <td className={styles.num}>{formatCount(p.executed)}</td>
                        <td className={styles.num}>{formatCount(p.expired)}</td>
                        <td className={styles.num}>{formatPercent(p.conversion)}</td>
                        <td className={styles.num}>{formatDuration(p.medianSecondsToExecute)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Panel>
          <Panel title="Recent locks" note="latest 20, any range">
            {query.data.recent.length === 0 ? (
              <EmptyState title="No locks yet" />
            ) : (
              <div className={styles.tableWrap}>
                <table className={styles.table}>
                  <thead>
                    <tr>
                      <th scope="col">Lock</th>
                      <th scope="col">Outcome</th>
                      <th scope="col">Provider</th>
                      <th scope="col">Route</th>
                      <th scope="col">Created</th>
                      <th scope="col">Transaction</th>
                    </tr>
                  </thead>
                  <tbody>
                    {query.data.recent.map((lock) => (
                      <tr key={lock.id}>
                        <td className={styles.mono}>{lock.id}</td>
                        <td>
                          <StatusBadge status={lock.outcome} />
                        </td>
                        <td>{lock.provider}</td>
                        <td>
                          {lock.amount}{' '}
                          <span className={styles.muted}>
                            {lock.srcChain} → {lock.dstChain}
                          </span>
                        </td>
                        <td>{formatDateTime(lock.createdAt)}</td>
                        <td>
                          {lock.transactionId ? (
                            <Link
                              className={styles.mono}
                              href={`/dashboard/transactions/${lock.transactionId}`}
                              title={lock.transactionId}
                            >
                              {shortHash(lock.transactionId, 10)}
                            </Link>
                          ) : (
                            <span className={styles.muted}>—</span>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Panel>
        </>
      )}
    </div>
  );
}
