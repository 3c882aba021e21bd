import type { AriaRole, ReactNode } from 'react';
import styles from './notice.module.css';

type Tone = 'error' | 'warning' | 'success';

/** A boxed message: an error, a warning or a confirmation, its `title` in bold before the text. */
export function Notice({
  tone,
  title,
  role,
  className,
  children,
}: {
  tone: Tone;
  title?: ReactNode;
  role?: AriaRole;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <div className={[styles.notice, styles[tone], className].filter(Boolean).join(' ')} role={role}>
      {title ? <strong>{title}</strong> : null}
      {title && children ? ' ' : null}
      {children}
    </div>
  );
}

/** One line under a form saying what its last submit did. */
export function FormStatus({
  tone,
  id,
  role,
  children,
}: {
  tone: 'error' | 'success';
  id?: string;
  role?: AriaRole;
  children: ReactNode;
}) {
  return (
    <p
      id={id}
      role={role}
      className={`${styles.status} ${tone === 'error' ? styles.statusError : styles.statusSuccess}`}
    >
      {children}
    </p>
  );
}
