import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import styles from './dash.module.css';
import { describeError } from './query-error';

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className={styles.state}>
      <p className={styles.stateTitle}>{title}</p>
      {children ? <div className={styles.stateText}>{children}</div> : null}
    </div>
  );
}

export function LoadingState({ label = 'Loading…', rows = 5 }: { label?: string; rows?: number }) {
  return (
    <div className={styles.skeletonBlock} role="status" aria-live="polite">
      <span className={styles.srOnly}>{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
        <div key={i} className={styles.skeleton} style={{ width: `${90 - (i % 3) * 15}%` }} />
      ))}
    </div>
  );
}

export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div className={`${styles.state} ${styles.stateError}`} role="alert">
      <p className={styles.stateTitle}>Something went wrong</p>
      <p className={styles.stateText}>{message}</p>
      {onRetry ? (
        <button type="button" className={styles.button} onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

export function Forbidden({ needs }: { needs: string }) {
  return (
    <div className={styles.panel}>
      <EmptyState title="You don't have access to this page">
        It needs the {needs} role. Ask an admin if you think you should have it.
      </EmptyState>
    </div>
  );
}

/** A query's loading and error panels; once its data has arrived, whatever `children` renders from it. */
export function QueryPanel<T, E>({
  query,
  loading,
  children,
}: {
  query: UseQueryResult<T, E>;
  loading: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) {
    return (
      <div className={styles.panel}>
        <LoadingState label={loading} rows={8} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className={styles.panel}>
        <ErrorState message={describeError(query.error).message} onRetry={() => query.refetch()} />
      </div>
    );
  }
  return <>{children(query.data)}</>;
}
