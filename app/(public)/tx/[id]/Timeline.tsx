'use client';

import { useEffect, useState } from 'react';
import { LocalTime } from '@/app/_kit/LocalTime';
import { Panel } from '@/app/_kit/Panel';
import { StatusBadge } from '@/app/_kit/StatusBadge';
import { LoadingState } from '@/app/_kit/states';
import { substatusText } from '@/app/_kit/substatus';
import { api, type TimelineEvent } from '../../_lib/api';
import styles from './tracker.module.css';

const SOURCE_TEXT: Record<TimelineEvent['source'], string> = {
  execute: 'Switchyard',
  poll: 'Provider',
  track: 'You',
  sweep: 'Switchyard',
  support: 'Support',
};

const SETTLED_TEXT: Record<TimelineEvent['status'], string> = {
  PENDING: 'Back in progress',
  SUCCESS: 'Completed',
  FAILED: 'Failed',
  REFUND: 'Refunded',
};

/** The outbound a step sent: the refund's own transaction, else the payout. */
const outboundText = (event: TimelineEvent, refundHash: string) =>
  refundHash && event.outboundHash === refundHash ? 'Refund transaction sent' : 'Payout transaction sent';

/** What a step did; a step that only moved the swap along says where it is now. */
function stepText(event: TimelineEvent, refundHash: string): string {
  switch (event.type) {
    case 'created':
      return 'Swap created';
    case 'track':
      return event.hash ? 'Deposit hash reported' : 'Tracking refreshed';
    case 'hash_updated':
      return event.outboundHash ? outboundText(event, refundHash) : 'Deposit seen on chain';
    case 'hash_verified':
      return 'Deposit matched to this swap';
    case 'hash_rejected':
      return 'A reported hash did not match this swap';
    case 'status_changed':
      return substatusText(event) ?? SETTLED_TEXT[event.status];
    case 'partial_fill':
      return 'Partly filled; the rest refunded';
    case 'stale':
      return 'Taking longer than usual; support was alerted';
    case 'manual_poll':
      return 'Checked by support';
    default:
      return substatusText(event) ?? 'Progress reported';
  }
}

/** What else the step changed, beside what it is named for: where the swap got to, a payout sent. */
function stepNotes(event: TimelineEvent, previous: TimelineEvent | undefined, refundHash: string): string[] {
  const main = stepText(event, refundHash);
  const notes: string[] = [];
  const where = substatusText(event);
  if (where && where !== (previous && substatusText(previous))) notes.push(where);
  if (event.outboundHash && event.outboundHash !== previous?.outboundHash) notes.push(outboundText(event, refundHash));
  return notes.filter((note) => note !== main);
}

/**
 * The recorded steps, oldest first; re-read whenever the stream reports a change (`version`) after
 * the one the page was rendered with (`initial`).
 */
export function Timeline({
  transactionId,
  version,
  initial,
  refundHash = '',
}: {
  transactionId: string;
  version: string;
  initial?: TimelineEvent[];
  /** The refund's transaction, when the deposit goes back: its step says so. */
  refundHash?: string;
}) {
  const [events, setEvents] = useState<TimelineEvent[] | null>(initial ?? null);
  const [renderedVersion] = useState(initial ? version : null);

  useEffect(() => {
    if (!version || version === renderedVersion) return;
    const controller = new AbortController();
    api
      .events(transactionId, controller.signal)
      .then(({ data }) => setEvents(data))
      .catch(() => {});
    return () => controller.abort();
  }, [transactionId, version, renderedVersion]);

  return (
    <Panel title="Timeline" headingId="timeline-title">
      {events === null ? (
        <LoadingState label="Loading the steps…" rows={2} />
      ) : (
        <ol className={styles.timeline} aria-label="Steps so far, oldest first">
          {events.map((event, index) => {
            const notes = stepNotes(event, events[index - 1], refundHash);
            return (
              <li key={event.id} className={styles.step} data-testid="timeline-step">
                <span className={styles.stepTime}>
                  <LocalTime value={event.at} />
                </span>
                <span className={styles.stepText}>
                  {stepText(event, refundHash)}
                  {notes.length > 0 && <span className={styles.stepSub}> · {notes.join(' · ')}</span>}
                </span>
                <span className={styles.stepMeta}>
                  <StatusBadge status={event.status} />{' '}
                  <span className={styles.stepSource}>{SOURCE_TEXT[event.source]}</span>
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </Panel>
  );
}
