import type { ReactNode } from 'react';
import styles from './detail-list.module.css';

/** Label–value pairs, side by side on wide screens and stacked on narrow ones. Fill it with `Detail`s. */
export function DetailList({ children, className }: { children: ReactNode; className?: string }) {
  return <dl className={className ? `${styles.list} ${className}` : styles.list}>{children}</dl>;
}

export function Detail({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}
