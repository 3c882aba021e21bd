import type { ReactNode } from 'react';
import styles from './swap-summary.module.css';

interface Side {
  amount: string;
  /** A muted line under the amount: its USD value, or the chain it is on. */
  extra?: ReactNode;
}

/** "You send → You receive", side by side (stacked on narrow screens); `labels` name the sides otherwise. */
export function SwapSummary({
  send,
  receive,
  labels = ['You send', 'You receive'],
  className,
}: {
  send: Side;
  receive: Side;
  labels?: [send: string, receive: string];
  className?: string;
}) {
  return (
    <div className={className ? `${styles.summary} ${className}` : styles.summary}>
      <SummarySide label={labels[0]} side={send} />
      <span className={styles.arrow} aria-hidden="true">
        →
      </span>
      <SummarySide label={labels[1]} side={receive} />
    </div>
  );
}

function SummarySide({ label, side }: { label: string; side: Side }) {
  return (
    <div className={styles.side}>
      <span className={styles.label}>{label}</span>
      <span className={styles.amount}>{side.amount}</span>
      {side.extra ? <span className={styles.extra}>{side.extra}</span> : null}
    </div>
  );
}
