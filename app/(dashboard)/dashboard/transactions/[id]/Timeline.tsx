import { formatDateTime } from '@/app/_kit/format';
import { StatusBadge } from '@/app/_kit/StatusBadge';
import { recordedTogether } from '@/server/transactions/recorded-together';
import type { RouterOutputs } from '../../../_trpc/client';
import styles from './detail.module.css';

type TimelineEvent = RouterOutputs['transactions']['detail']['events'][number];

const DOTS: Record<string, string | undefined> = {
  status_changed: styles.dotSuccess,
  poll_error: styles.dotError,
  ignored_regression: styles.dotWarn,
  hash_updated: styles.dotInfo,
  track: styles.dotInfo,
  manual_poll: styles.dotWarn,
};

/** The events one write recorded together (a provider answer), with the status the swap had after them. */
interface Change {
  events: TimelineEvent[];
  status: TimelineEvent['fromStatus'] & string;
}

function changesOf(events: TimelineEvent[]): Change[] {
  let status: Change['status'] = 'PENDING';
  return recordedTogether(events, (event) => new Date(event.createdAt).getTime()).map((run) => {
    for (const event of run) if (event.toStatus) status = event.toStatus;
    return { events: run, status };
  });
}

function dotOf(change: Change): string {
  if (
    change.events.some((e) => e.type === 'status_changed') &&
    (change.status === 'FAILED' || change.status === 'REFUND')
  )
    return styles.dotError ?? '';
  const telling = change.events.find((e) => e.type === 'status_changed') ?? change.events[0];
  return (telling && DOTS[telling.type]) || '';
}

/** A transaction's events, oldest first, one entry per change, each badge the status after that change. */
export function Timeline({ events }: { events: TimelineEvent[] }) {
  return (
    <ol className={styles.timeline}>
      {changesOf(events).map((change) => {
        const first = change.events[0] as TimelineEvent;
        return (
          <li key={first.id} className={styles.item} data-testid="support-timeline-change">
            <span className={`${styles.dot} ${dotOf(change)}`} />
            <div className={styles.meta}>
              <span className={styles.type}>
                {[...new Set(change.events.map((e) => e.type.replaceAll('_', ' ')))].join(' · ')}
              </span>
              <StatusBadge status={change.status} />
              <time dateTime={new Date(first.createdAt).toISOString()}>{formatDateTime(first.createdAt)}</time>
            </div>
            {change.events.map((event) => (
              <p key={event.id} className={styles.message}>
                {event.message}
              </p>
            ))}
          </li>
        );
      })}
    </ol>
  );
}
