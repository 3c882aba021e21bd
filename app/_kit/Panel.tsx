import Link from 'next/link';
import type { ReactNode, Ref } from 'react';
import styles from './panel.module.css';

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');

interface PanelProps {
  /** Without a title the panel is a plain box; with one it is a section named by its heading. */
  title?: ReactNode;
  /** The heading's id; made from a string title when not given. */
  headingId?: string;
  headingLevel?: 2 | 3;
  /** Focus target for flows that move the reader to this panel once it renders. */
  headingRef?: Ref<HTMLHeadingElement>;
  note?: ReactNode;
  lead?: ReactNode;
  actions?: ReactNode;
  /** The section's own id, e.g. an anchor to link to. */
  id?: string;
  busy?: boolean;
  className?: string;
  children?: ReactNode;
}

export function Panel({
  title,
  headingId,
  headingLevel = 2,
  headingRef,
  note,
  lead,
  actions,
  id,
  busy,
  className,
  children,
}: PanelProps) {
  const classes = className ? `${styles.panel} ${className}` : styles.panel;
  if (title === undefined) {
    return (
      <div id={id} className={classes} aria-busy={busy || undefined}>
        {children}
      </div>
    );
  }
  const labelId = headingId ?? `panel-${typeof title === 'string' ? slug(title) : id}`;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section id={id} className={classes} aria-labelledby={labelId} aria-busy={busy || undefined}>
      <div className={styles.header}>
        <Heading id={labelId} className={styles.title} ref={headingRef} tabIndex={headingRef ? -1 : undefined}>
          {title}
        </Heading>
        {note ? <span className={styles.note}>{note}</span> : null}
        {actions ? <div className={styles.actions}>{actions}</div> : null}
      </div>
      {lead ? <p className={styles.lead}>{lead}</p> : null}
      {children}
    </section>
  );
}

/** A page's title, with an optional way back, a lead paragraph and actions on the right. */
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
