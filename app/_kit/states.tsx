import type { ReactNode, Ref } from 'react';
import { Button } from './Button';
import { Notice } from './Notice';
import styles from './states.module.css';

/** Nothing to show yet: what would be here, and what to do about it. */
export function EmptyState({
  title,
  titleAs: Title = 'p',
  titleId,
  icon,
  children,
  actions,
}: {
  title?: ReactNode;
  titleAs?: 'p' | 'h1' | 'h2' | 'h3';
  titleId?: string;
  icon?: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className={styles.empty}>
      {icon ? (
        <span className={styles.emptyIcon} aria-hidden="true">
          {icon}
        </span>
      ) : null}
      {title ? (
        <Title id={titleId} className={styles.emptyTitle}>
          {title}
        </Title>
      ) : null}
      {children ? <div className={styles.emptyText}>{children}</div> : null}
      {actions ? <div className={styles.emptyActions}>{actions}</div> : null}
    </div>
  );
}

/**
 * Placeholder shapes while data loads, under a line saying what is loading. `announce` makes the
 * line a status message; leave it off where the page already announces the wait.
 */
export function LoadingState({
  label = 'Loading…',
  rows = 5,
  shape = 'lines',
  announce = true,
}: {
  /** What is loading; null for a second placeholder under one that already says it. */
  label?: string | null;
  rows?: number;
  shape?: 'lines' | 'blocks';
  announce?: boolean;
}) {
  return (
    // data-loading: what end-to-end timings wait on (every page's data has come once none is left).
    <div className={styles.loading} data-loading="">
      {label ? (
        <p className={styles.loadingLabel} role={announce ? 'status' : undefined}>
          {label}
        </p>
      ) : null}
      {Array.from({ length: rows }, (_, i) =>
        shape === 'blocks' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          <div key={i} className={styles.block} aria-hidden="true" />
        ) : (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            key={i}
            className={styles.line}
            style={{ width: `${90 - (i % 3) * 15}%` }}
            aria-hidden="true"
          />
        ),
      )}
    </div>
  );
}

/** A failure to load, said as an alert, with a way to try again. */
export function ErrorState({
  title = 'Something went wrong.',
  message,
  onRetry,
  focusRef,
}: {
  title?: string;
  message: ReactNode;
  onRetry?: () => void;
  /** See `Notice`. */
  focusRef?: Ref<HTMLDivElement>;
}) {
  return (
    <div className={styles.error}>
      <Notice tone="error" role="alert" title={title} focusRef={focusRef}>
        {message}
      </Notice>
      {onRetry ? <Button onClick={onRetry}>Try again</Button> : null}
    </div>
  );
}
