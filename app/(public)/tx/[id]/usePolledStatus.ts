'use client';

import { useEffect, useRef, useState } from 'react';
import { type ApiError, api, asApiError, type Transaction } from '../../_lib/api';

export const POLL_MS = 3000;

export type TrackerState =
  | { kind: 'loading' }
  | { kind: 'not-found' }
  | { kind: 'error'; error: ApiError }
  | { kind: 'ready'; tx: Transaction; final: boolean; checkedAt: number; refreshError: ApiError | null };

const isNotFound = (error: ApiError) =>
  error.status === 404 || (error.status === 400 && error.fieldMessages().transactionId !== undefined);

/** The transaction's status, polled every few seconds until it is final. */
export function usePolledStatus(transactionId: string): TrackerState {
  const [state, setState] = useState<TrackerState>({ kind: 'loading' });
  const hasData = useRef(false);

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();
    hasData.current = false;
    setState({ kind: 'loading' });

    async function poll() {
      try {
        const { data } = await api.status(transactionId, controller.signal);
        if (cancelled) return;
        hasData.current = true;
        setState({ kind: 'ready', tx: data.transaction, final: data.final, checkedAt: Date.now(), refreshError: null });
        if (!data.final) timer = setTimeout(poll, POLL_MS);
      } catch (caught) {
        if (cancelled) return;
        const error = asApiError(caught);
        if (isNotFound(error)) {
          setState({ kind: 'not-found' });
        } else if (hasData.current) {
          // Keep what we have on screen and keep trying; a blip should not blank the page.
          setState((prev) => (prev.kind === 'ready' ? { ...prev, refreshError: error } : prev));
          timer = setTimeout(poll, POLL_MS);
        } else {
          setState({ kind: 'error', error });
        }
      }
    }
    void poll();
    return () => {
      cancelled = true;
      controller.abort();
      clearTimeout(timer);
    };
  }, [transactionId]);

  return state;
}
