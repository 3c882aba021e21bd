import { Fragment } from 'react';
import { columnsOf, TablePanel } from '@/app/_kit/DataTable';
import { formatDateTime } from '@/app/_kit/format';
import { RelativeTime } from '@/app/_kit/RelativeTime';
import { StatusBadge } from '@/app/_kit/StatusBadge';
import text from '@/app/_kit/text.module.css';
import type { RouterOutputs } from '../../_trpc/client';

type ScheduledJob = RouterOutputs['operations']['overview']['jobs'][number];

/** `30 s`, `10 min`, `1.5 h`: a span without trailing zero units. */
function span(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${Number((ms / 3_600_000).toFixed(1))} h`;
}

function JobState({ job }: { job: ScheduledJob }) {
  if (job.scheduled === false) return <StatusBadge status="not scheduled" tone="failed" />;
  if (job.overdue) return <StatusBadge status={job.lastSucceededAt ? 'overdue' : 'never completed'} tone="failed" />;
  if (job.lastOutcome === 'failed') return <StatusBadge status="last run failed" tone="pending" />;
  return <StatusBadge status="on time" tone="success" />;
}

/**
 * `maintenance.prune-webhook-deliveries` whole when there is room, else broken after a dot or a hyphen:
 * the longest names alone held the table past its panel at 1280 px while a job had not completed yet.
 */
function BreaksAtPunctuation({ text: name }: { text: string }) {
  const parts = name.split(/(?<=[.-])/);
  return parts.map((part, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, in order
    <Fragment key={index}>
      {index > 0 ? <wbr /> : null}
      {part}
    </Fragment>
  ));
}

const col = columnsOf<ScheduledJob>();
const columns = col.columns([
  col.accessor('job', {
    header: 'Job',
    meta: { rowHeader: true },
    cell: ({ getValue }) => <BreaksAtPunctuation text={getValue()} />,
  }),
  col.display({ id: 'state', header: 'State', cell: ({ row }) => <JobState job={row.original} /> }),
  col.accessor('intervalMs', {
    header: 'Every',
    meta: { numeric: true },
    cell: ({ row: { original: job } }) => (
      <span title={`overdue after ${span(job.overdueAfterMs)} without a success`}>{span(job.intervalMs)}</span>
    ),
  }),
  col.accessor('ageMs', {
    header: 'Last completed',
    cell: ({ row: { original: job } }) =>
      job.ageMs == null ? (
        <span className={text.muted}>never</span>
      ) : (
        <span title={formatDateTime(job.lastSucceededAt)}>{span(job.ageMs)} ago</span>
      ),
  }),
  col.display({
    id: 'lastRun',
    header: 'Last run',
    meta: { wrap: true },
    cell: ({ row: { original: job } }) =>
      job.lastOutcome == null ? (
        <span className={text.muted}>—</span>
      ) : (
        <span title={job.lastError ?? ''}>
          {job.lastOutcome === 'ok' ? 'ok' : `failed: ${(job.lastError ?? 'no reason').slice(0, 60)}`}
          {job.lastDurationMs != null ? <span className={text.muted}> · {span(job.lastDurationMs)}</span> : null}
        </span>
      ),
  }),
  col.display({
    id: 'nextRun',
    header: 'Next run',
    cell: ({ row: { original: job } }) => (
      <span className={text.muted}>
        {job.nextRunAt ? <RelativeTime value={job.nextRunAt} /> : job.scheduled === null ? 'Redis unavailable' : '—'}
      </span>
    ),
  }),
]);

/** Each scheduled maintenance job: how long since it last completed, and whether that is too long. */
export function ScheduledJobs({ jobs }: { jobs: ScheduledJob[] }) {
  return (
    <TablePanel
      title="Scheduled jobs"
      note="maintenance jobs the worker runs; overdue when the last success is too old"
      columns={columns}
      data={jobs}
    />
  );
}
