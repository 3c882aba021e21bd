import styles from './ui.module.css';

const KNOWN = new Set(['PENDING', 'SUCCESS', 'FAILED', 'REFUND']);

/** Colour plus text, so the status never depends on colour alone. */
export function StatusBadge({ status, large = false }: { status: string; large?: boolean }) {
  const key = KNOWN.has(status) ? status : 'UNKNOWN';
  return (
    <span
      className={[styles.badge, styles[`status${key}`], large ? styles.badgeLarge : ''].filter(Boolean).join(' ')}
      data-status={status}
    >
      {status}
    </span>
  );
}
