import type { AriaRole, ReactNode, Ref } from 'react';
import styles from './notice.module.css';

type Tone = 'error' | 'warning' | 'success';

/** A boxed message: an error, a warning or a confirmation, its `title` in bold before the text. */
export function Notice({
  tone,
  title,
  role,
  className,
  focusRef,
  children,
}: {
  tone: Tone;
  title?: ReactNode;
  role?: AriaRole;
  className?: string;
  /** Makes the notice a focus target, for flows that move the reader to it once it renders. */
  focusRef?: Ref<HTMLDivElement>;
  children?: ReactNode;
}) {
  return (
    <div
      className={[styles.notice, styles[tone], className].filter(Boolean).join(' ')}
      role={role}
      ref={focusRef}
      tabIndex={focusRef ? -1 : undefined}
    >
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
