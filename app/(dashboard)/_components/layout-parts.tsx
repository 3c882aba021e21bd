import Link from 'next/link';
import type { ReactNode } from 'react';
import styles from './dash.module.css';

export function PageHeader({
  title,
  lead,
  back,
  actions,
}: {
  title: ReactNode;
  lead?: ReactNode;
  back?: { href: string; label: string };
  actions?: ReactNode;
}) {
  return (
    <header className={styles.pageHeader}>
      <div>
        {back ? (
          <nav aria-label="Breadcrumb" className={styles.breadcrumb}>
            <Link href={back.href}>← {back.label}</Link>
          </nav>
        ) : null}
        <h1 className={styles.pageTitle}>{title}</h1>
        {lead ? <p className={styles.pageLead}>{lead}</p> : null}
      </div>
      {actions ? <div>{actions}</div> : null}
    </header>
  );
}

export function Panel({
  title,
  note,
  actions,
  children,
  id,
}: {
  title: string;
  note?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  id?: string;
}) {
  const headingId = id ?? `panel-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <div className={styles.panelHeader}>
        <h2 id={headingId} className={styles.panelTitle}>
          {title}
        </h2>
        {note ? <span className={styles.panelNote}>{note}</span> : null}
        {actions}
      </div>
      {children}
    </section>
  );
}

export function Kpi({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <div className={styles.kpi}>
      <p className={styles.kpiLabel}>{label}</p>
      <p className={styles.kpiValue}>{value}</p>
      {hint ? <p className={styles.kpiHint}>{hint}</p> : null}
    </div>
  );
}
