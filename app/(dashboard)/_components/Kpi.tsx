import type { ReactNode } from 'react';
import styles from './kpi.module.css';

/** A row of headline figures; `label` names the row for screen readers when it is a landmark of its own. */
export function KpiGrid({ label, children }: { label?: string; children: ReactNode }) {
  return label ? (
    <section aria-label={label} className={styles.grid}>
      {children}
    </section>
  ) : (
    <div className={styles.grid}>{children}</div>
  );
}

export function Kpi({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <div className={styles.kpi}>
      <p className={styles.label}>{label}</p>
      <p className={styles.value}>{value}</p>
      {hint ? <p className={styles.hint}>{hint}</p> : null}
    </div>
  );
}
