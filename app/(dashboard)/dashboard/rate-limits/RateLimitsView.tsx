'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Range } from '@/server/dashboard/schemas';
import { TimeSeriesChart } from '../../_components/charts';
import styles from '../../_components/dash.module.css';
import { formatCount, formatDateTime } from '../../_components/format';
import { Kpi, Panel } from '../../_components/layout-parts';
import { RangePicker } from '../../_components/RangePicker';
import { EmptyState, QueryPanel } from '../../_components/states';
import { useTRPC } from '../../_trpc/client';

export function RateLimitsView() {
  const trpc = useTRPC();
  const [range, setRange] = useState<Range>('24h');
  const query = useQuery(trpc.rateLimits.activity.queryOptions({ range }, { placeholderData: keepPreviousData }));

  return (
    <div className={styles.stack}>
      <div>
        <RangePicker value={range} onChange={setRange} />
      </div>
      <QueryPanel query={query} loading="Loading rate-limit activity…">
        {(data) => (
          <>
            <div className={styles.kpiGrid}>
              <Kpi label="429 responses" value={formatCount(data.total)} />
              <Kpi label="Clients limited" value={formatCount(data.topClients.length)} hint="top 10 shown below" />
              <Kpi label="Window" value={`${data.limits.windowSeconds} s`} hint="per client, per route class" />
            </div>
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
            <div className={styles.grid2}>
              <Panel title="Top clients" note="client addresses are stored only as keyed hashes">
                {data.topClients.length === 0 ? (
                  <EmptyState title="No limited clients" />
                ) : (
                  <div className={styles.tableWrap}>
                    <table className={styles.table}>
                      <thead>
                        <tr>
                          <th scope="col">Client hash</th>
                          <th scope="col" className={styles.num}>
                            429s
                          </th>
                          <th scope="col">Route classes</th>
                          <th scope="col">Last seen</th>
                        </tr>
                      </thead>
                      <tbody>
                        {data.topClients.map((c) => (
                          <tr key={c.clientHash}>
                            <td className={styles.mono} title={c.clientHash}>
                              {c.clientHash.slice(0, 16)}
                            </td>
                            <td className={styles.num}>{formatCount(c.hits)}</td>
                            <td>{c.routeClasses.join(', ')}</td>
                            <td>{formatDateTime(c.lastSeen)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
              </Panel>
              <Panel title="Limits in force" note="from the server configuration">
                <div className={styles.tableWrap}>
                  <table className={styles.table}>
                    <thead>
                      <tr>
                        <th scope="col">Route class</th>
                        <th scope="col" className={styles.num}>
                          Requests per {data.limits.windowSeconds} s
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {Object.entries(data.limits.perClient).map(([routeClass, limit]) => (
                        <tr key={routeClass}>
                          <th scope="row">{routeClass}</th>
                          <td className={styles.num}>{formatCount(limit)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </Panel>
            </div>
          </>
        )}
      </QueryPanel>
    </div>
  );
}
