import { formatDateTime } from '@/app/_kit/format';
import { StatusBadge } from '@/app/_kit/StatusBadge';
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

/** A transaction's events, oldest first, each marked by what kind of event it is. */
export function Timeline({ events }: { events: TimelineEvent[] }) {
  return (
    <ol className={styles.timeline}>
      {events.map((event) => {
        const failed = event.type === 'status_changed' && (event.toStatus === 'FAILED' || event.toStatus === 'REFUND');
        return (
          <li key={event.id} className={styles.item}>
            <span className={`${styles.dot} ${failed ? styles.dotError : (DOTS[event.type] ?? '')}`} />
            <div className={styles.meta}>
              <span className={styles.type}>{event.type.replaceAll('_', ' ')}</span>
              {event.toStatus ? <StatusBadge status={event.toStatus} /> : null}
              <time dateTime={new Date(event.createdAt).toISOString()}>{formatDateTime(event.createdAt)}</time>
            </div>
            <p className={styles.message}>{event.message}</p>
          </li>
        );
      })}
    </ol>
  );
}
