'use client';

import { useEffect, useState } from 'react';
import { type ApiError, api, asApiError, type Transaction, type TransactionStatus } from '../../_lib/api';

/** After the stream was refused (rate limit, server gone), how long until a fresh one is opened. */
const REOPEN_AFTER_MS = 5000;

export type TrackerState =
  | { kind: 'loading' }
  | { kind: 'not-found' }
  | { kind: 'error'; error: ApiError }
  | { kind: 'ready'; tx: Transaction; final: boolean; receivedAt: number; connected: boolean };

const isNotFound = (error: ApiError) =>
  error.status === 404 || (error.status === 400 && error.fieldMessages().transactionId !== undefined);

/**
 * The transaction's status pushed by the server over Server-Sent Events until it is final.
 * `EventSource` reconnects by itself after a dropped connection, sending `Last-Event-ID`, so
 * nothing is missed; a refused stream (an error answer) is diagnosed with one status read.
 */
export function useStatusStream(transactionId: string): TrackerState {
  const [state, setState] = useState<TrackerState>({ kind: 'loading' });

  useEffect(() => {
    let source: EventSource | undefined;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const controller = new AbortController();
    setState({ kind: 'loading' });

    const setConnected = (connected: boolean) =>
      setState((prev) => (prev.kind === 'ready' && prev.connected !== connected ? { ...prev, connected } : prev));

    async function diagnose() {
      try {
        const { data } = await api.status(transactionId, controller.signal);
        if (stopped) return;
        setState({ kind: 'ready', tx: data.transaction, final: data.final, receivedAt: Date.now(), connected: false });
        if (!data.final) reopen = setTimeout(open, REOPEN_AFTER_MS);
      } catch (caught) {
        if (stopped) return;
        const error = asApiError(caught);
        if (isNotFound(error)) setState({ kind: 'not-found' });
        else {
          setState((prev) => (prev.kind === 'ready' ? { ...prev, connected: false } : { kind: 'error', error }));
          reopen = setTimeout(open, REOPEN_AFTER_MS);
        }
      }
    }

    function open() {
      source = new EventSource(api.statusStreamUrl(transactionId));
      source.addEventListener('open', () => setConnected(true));
      source.addEventListener('status', (event) => {
        const data = JSON.parse((event as MessageEvent<string>).data) as TransactionStatus;
        setState({ kind: 'ready', tx: data.transaction, final: data.final, receivedAt: Date.now(), connected: true });
        if (data.final) {
          stopped = true;
          source?.close();
        }
      });
      source.addEventListener('error', () => {
        if (stopped) return;
        // CONNECTING: the browser is already retrying with Last-Event-ID. CLOSED: the server refused it.
        if (source?.readyState === EventSource.CONNECTING) setConnected(false);
        else void diagnose();
      });
    }

    open();
    return () => {
      stopped = true;
      controller.abort();
      clearTimeout(reopen);
      source?.close();
    };
  }, [transactionId]);

  return state;
}
