import styles from './status-badge.module.css';

export type Tone = 'success' | 'pending' | 'failed' | 'refund' | 'info' | 'neutral';

/** The tone of every status the product shows: transactions, lock outcomes, roles, health. */
const TONES: Record<string, Tone> = {
  SUCCESS: 'success',
  PENDING: 'pending',
  FAILED: 'failed',
  REFUND: 'refund',
  executed: 'success',
  executing: 'pending',
  open: 'info',
  expired: 'neutral',
  stale: 'pending',
  ok: 'success',
  admin: 'refund',
  support: 'info',
  affiliate: 'success',
  active: 'success',
  delivered: 'success',
  pending: 'pending',
  failing: 'pending',
  failed: 'failed',
  disabled: 'failed',
};

/** A pill coloured by status; the text always carries the meaning too, never the colour alone. */
export function StatusBadge({
  status,
  label,
  tone,
  large = false,
}: {
  status: string;
  label?: string;
  /** Overrides the tone the status has on its own (e.g. a count shown as a failure). */
  tone?: Tone;
  large?: boolean;
}) {
  const classes = [styles.badge, styles[tone ?? TONES[status] ?? 'neutral'], large && styles.large];
  return (
    <span className={classes.filter(Boolean).join(' ')} data-status={status}>
      {label ?? status}
    </span>
  );
}
