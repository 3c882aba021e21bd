'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import type { Range } from '@/server/dashboard/schemas';
import { TimeSeriesChart } from '../../_components/charts';
import styles from '../../_components/dash.module.css';
import { formatCount, formatDateTime, formatDuration, formatPercent, shortHash } from '../../_components/format';
import { Kpi, Panel } from '../../_components/layout-parts';
import { RangePicker } from '../../_components/RangePicker';
import { StatusBadge } from '../../_components/StatusBadge';
import { EmptyState, QueryPanel } from '../../_components/states';
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
      <QueryPanel query={query} loading="Loading lock activity…">
        {(data) => (
          <>
            <div className={styles.kpiGrid}>
              <Kpi label="Locks created" value={formatCount(data.totals.created)} />
              <Kpi label="Executed" value={formatCount(data.totals.executed)} />
              <Kpi label="Expired unused" value={formatCount(data.totals.expired)} />
              <Kpi label="Lock → execute" value={formatPercent(data.totals.conversion)} hint="executed / created" />
            </div>
            <Panel title="Locks over time" note={`per ${data.bucket}, UTC`}>
              {data.totals.created === 0 && data.totals.expired === 0 ? (
                <EmptyState title="No locks in this range">Locks appear here as integrators lock quotes.</EmptyState>
              ) : (
                <TimeSeriesChart
                  data={data.series}
                  bucket={data.bucket}
                  kind="bar"
                  series={[
                    { key: 'created', label: 'Created', colour: '#6cb6ff' },
                    { key: 'executed', label: 'Executed', colour: '#4cc38a' },
                    { key: 'expired', label: 'Expired', colour: '#8b98a9' },
                  ]}
                  summary={`${data.totals.created} locks created, ${data.totals.executed} executed and ${data.totals.expired} expired in this range.`}
                />
              )}
            </Panel>
            <Panel title="By provider">
              {data.byProvider.length === 0 ? (
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
                      {data.byProvider.map((p) => (
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
              {data.recent.length === 0 ? (
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
                      {data.recent.map((lock) => (
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
      </QueryPanel>
    </div>
  );
}
