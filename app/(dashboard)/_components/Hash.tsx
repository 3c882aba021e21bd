import { CopyButton } from './CopyButton';
import styles from './dash.module.css';
import { shortHash } from './format';

/** A hash or address in monospace, shortened, with the full value on hover, a copy button and an explorer link. */
export function Hash({
  value,
  href,
  copy = false,
  full = false,
}: {
  value: string | null | undefined;
  href?: string | null;
  copy?: boolean;
  full?: boolean;
}) {
  if (!value) return <span className={styles.muted}>—</span>;
  const text = full ? value : shortHash(value);
  return (
    <span className={styles.hashRow}>
      {href ? (
        <a className={styles.mono} href={href} target="_blank" rel="noopener noreferrer" title={value}>
          {text}
          <span className={styles.srOnly}> (opens the block explorer)</span>
        </a>
      ) : (
        <span className={styles.mono} title={value}>
          {text}
        </span>
      )}
      {copy ? <CopyButton value={value} /> : null}
    </span>
  );
}
