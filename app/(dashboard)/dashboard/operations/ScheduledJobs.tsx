import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/trpc/routers/_app';
import styles from '../../_components/dash.module.css';
import { formatDateTime, formatRelative } from '../../_components/format';
import { Panel } from '../../_components/layout-parts';
import { StatusBadge } from '../../_components/StatusBadge';

type ScheduledJob = inferRouterOutputs<AppRouter>['operations']['overview']['jobs'][number];

/** `30 s`, `10 min`, `1.5 h`: a span without trailing zero units. */
function span(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${Number((ms / 3_600_000).toFixed(1))} h`;
}

function JobState({ job }: { job: ScheduledJob }) {
  if (job.scheduled === false) return <StatusBadge status="FAILED" label="not scheduled" />;
  if (job.overdue) return <StatusBadge status="FAILED" label={job.lastSucceededAt ? 'overdue' : 'never completed'} />;
  if (job.lastOutcome === 'failed') return <StatusBadge status="stale" label="last run failed" />;
  return <StatusBadge status="ok" label="on time" />;
}

/** Each scheduled maintenance job: how long since it last completed, and whether that is too long. */
export function ScheduledJobs({ jobs }: { jobs: ScheduledJob[] }) {
  return (
    <Panel title="Scheduled jobs" note="maintenance jobs the worker runs; overdue when the last success is too old">
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">State</th>
              <th scope="col" className={styles.num}>
                Every
              </th>
              <th scope="col">Last completed</th>
              <th scope="col">Last run</th>
              <th scope="col">Next run</th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((job) => (
              <tr key={job.id}>
                <th scope="row" className={styles.mono}>
                  {job.job}
                </th>
                <td>
                  <JobState job={job} />
                </td>
                <td className={styles.num} title={`overdue after ${span(job.overdueAfterMs)} without a success`}>
                  {span(job.intervalMs)}
                </td>
                <td title={formatDateTime(job.lastSucceededAt)}>
                  {job.ageMs == null ? <span className={styles.muted}>never</span> : `${span(job.ageMs)} ago`}
                </td>
                <td>
                  {job.lastOutcome == null ? (
                    <span className={styles.muted}>—</span>
                  ) : (
                    <span title={job.lastError ?? ''}>
                      {job.lastOutcome === 'ok' ? 'ok' : `failed: ${(job.lastError ?? 'no reason').slice(0, 60)}`}
                      {job.lastDurationMs != null ? (
                        <span className={styles.muted}> · {span(job.lastDurationMs)}</span>
                      ) : null}
                    </span>
                  )}
                </td>
                <td className={styles.muted}>
                  {job.nextRunAt ? formatRelative(job.nextRunAt) : job.scheduled === null ? 'Redis unavailable' : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
