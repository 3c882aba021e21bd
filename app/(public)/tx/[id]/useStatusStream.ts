'use client';

import { useEffect, useState } from 'react';
import { type ApiError, api, asApiError, type Transaction, type TransactionStatus } from '../../_lib/api';

/** After the stream was refused (rate limit, server gone), how long until a fresh one is opened. */
const REOPEN_AFTER_MS = 5000;

export type TrackerState =
  | { kind: 'loading' }
  | { kind: 'not-found' }
  | { kind: 'error'; error: ApiError }
  | {
      kind: 'ready';
      tx: Transaction;
      final: boolean;
      /** When a pending swap is usually done (the status answer's `expectedBy`); null when not known. */
      expectedBy: string | null;
      receivedAt: number;
      connection: Connection;
    };

/** The live updates: being opened (the state shown came with the page), open, or lost and being reopened. */
export type Connection = 'opening' | 'live' | 'lost';

const isNotFound = (error: ApiError) =>
  error.status === 404 || (error.status === 400 && error.fieldMessages().transactionId !== undefined);

/**
 * The transaction's status pushed by the server over Server-Sent Events until it is final, starting
 * from the state the page was rendered with (`initial`), when there is one.
 * `EventSource` reconnects by itself after a dropped connection, sending `Last-Event-ID`, so
 * nothing is missed; a refused stream (an error answer) is diagnosed with one status read.
 */
export function useStatusStream(transactionId: string, initial: TrackerState = { kind: 'loading' }): TrackerState {
  const [state, setState] = useState<TrackerState>(initial);
  const settled = initial.kind === 'not-found' || (initial.kind === 'ready' && initial.final);

  useEffect(() => {
    if (settled) return;
    let source: EventSource | undefined;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const controller = new AbortController();

    const setConnection = (connection: Connection) =>
      setState((prev) => (prev.kind === 'ready' && prev.connection !== connection ? { ...prev, connection } : prev));

    async function diagnose() {
      try {
        const { data } = await api.status(transactionId, controller.signal);
        if (stopped) return;
        setState({
          kind: 'ready',
          tx: data.transaction,
          final: data.final,
          expectedBy: data.expectedBy ?? null,
          receivedAt: Date.now(),
          connection: 'lost',
        });
        if (!data.final) reopen = setTimeout(open, REOPEN_AFTER_MS);
      } catch (caught) {
        if (stopped) return;
        const error = asApiError(caught);
        if (isNotFound(error)) setState({ kind: 'not-found' });
        else {
          setState((prev) => (prev.kind === 'ready' ? { ...prev, connection: 'lost' } : { kind: 'error', error }));
          reopen = setTimeout(open, REOPEN_AFTER_MS);
        }
      }
    }

    function open() {
      source = new EventSource(api.statusStreamUrl(transactionId));
      source.addEventListener('open', () => setConnection('live'));
      source.addEventListener('status', (event) => {
        const data = JSON.parse((event as MessageEvent<string>).data) as TransactionStatus;
        setState({
          kind: 'ready',
          tx: data.transaction,
          final: data.final,
          expectedBy: data.expectedBy ?? null,
          receivedAt: Date.now(),
          connection: 'live',
        });
        if (data.final) {
          stopped = true;
          source?.close();
        }
      });
      source.addEventListener('error', () => {
        if (stopped) return;
        // CONNECTING: the browser is already retrying with Last-Event-ID. CLOSED: the server refused it.
        if (source?.readyState === EventSource.CONNECTING) setConnection('lost');
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
  }, [transactionId, settled]);

  return state;
}
