import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Panel } from '@/app/_kit/Panel';
import { ErrorState, LoadingState } from '@/app/_kit/states';
import { describeError } from './query-error';

/** A query's loading and error states; once its data has arrived, whatever `children` renders from it. */
export function QueryState<T, E>({
  query,
  loading,
  boxed = true,
  children,
}: {
  query: UseQueryResult<T, E>;
  loading: string;
  /** Show the loading and error states in a panel of their own (off when already inside one). */
  boxed?: boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isSuccess) return <>{children(query.data)}</>;
  const state = query.isError ? (
    <ErrorState message={describeError(query.error).message} onRetry={() => query.refetch()} />
  ) : (
    <LoadingState label={loading} rows={8} />
  );
  return boxed ? <Panel>{state}</Panel> : state;
}
