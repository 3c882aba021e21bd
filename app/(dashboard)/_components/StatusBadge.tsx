import styles from './dash.module.css';

const TONES: Record<string, string | undefined> = {
  SUCCESS: styles.badgeSuccess,
  executed: styles.badgeSuccess,
  ok: styles.badgeSuccess,
  PENDING: styles.badgePending,
  open: styles.badgeInfo,
  executing: styles.badgePending,
  FAILED: styles.badgeFailed,
  expired: styles.badgeNeutral,
  REFUND: styles.badgeRefund,
  stale: styles.badgePending,
  admin: styles.badgeRefund,
  support: styles.badgeInfo,
  affiliate: styles.badgeSuccess,
};

/** A pill coloured by status (transactions, locks, roles); the text always carries the meaning too. */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return <span className={`${styles.badge} ${TONES[status] ?? styles.badgeNeutral}`}>{label ?? status}</span>;
}
