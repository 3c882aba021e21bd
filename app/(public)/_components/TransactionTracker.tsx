'use client';

import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { type ApiError, api, asApiError, type Transaction, type TxAsset } from '../_lib/api';
import { formatDateTime, formatUsd } from '../_lib/format';
import { CopyButton } from './CopyButton';
import { StatusBadge } from './StatusBadge';
import styles from './ui.module.css';
import { useCatalogNames } from './useCatalogNames';

const POLL_MS = 3000;

type State =
  | { kind: 'loading' }
  | { kind: 'not-found' }
  | { kind: 'error'; error: ApiError }
  | { kind: 'ready'; tx: Transaction; final: boolean; checkedAt: number; refreshError: ApiError | null };

const STATUS_TEXT: Record<string, string> = {
  PENDING: 'The swap is in progress. This page updates on its own.',
  SUCCESS: 'The swap completed and the funds were delivered.',
  FAILED: 'The swap failed. If funds were sent, the provider may still refund them.',
  REFUND: 'The swap was refunded to the source wallet.',
};

const isNotFound = (error: ApiError) =>
  error.status === 404 || (error.status === 400 && error.fieldMessages().transactionId !== undefined);

const timeFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

function usePolledStatus(transactionId: string): State {
  const [state, setState] = useState<State>({ kind: 'loading' });
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

function assetLabel(amount: string, asset: TxAsset): string {
  return `${amount} ${asset.symbol ?? ''}`.trim();
}

function HashRow({ label, value }: { label: string; value: string | null }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        {value ? (
          <>
            <code className={`${styles.mono} ${styles.value}`}>{value}</code>
            <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} />
          </>
        ) : (
          <span className={styles.statusText}>Not known yet</span>
        )}
      </dd>
    </>
  );
}

function Ready({ tx, final, checkedAt, refreshError }: Extract<State, { kind: 'ready' }>) {
  const { chainName, providerName } = useCatalogNames();
  const fee = formatUsd(tx.fee.amountUsd ?? tx.fee.usd) ?? tx.fee.formatted ?? '—';
  return (
    <div className={styles.stacked}>
      <section className={styles.panel} aria-labelledby="status-title">
        <h2 id="status-title" className={styles.panelTitle}>
          Status
        </h2>
        <div className={styles.statusLine} role="status" aria-atomic="true">
          <StatusBadge status={tx.status} large />
          <p className={styles.statusText}>{STATUS_TEXT[tx.status] ?? 'Status reported by the provider.'}</p>
        </div>

        <div className={`${styles.summary} ${styles.txSummary}`}>
          <div className={styles.summarySide}>
            <span className={styles.summaryLabel}>You send</span>
            <span className={styles.summaryAmount}>{assetLabel(tx.srcAmount, tx.srcAsset)}</span>
            <span className={styles.chainName}>on {chainName(tx.srcAsset.chain)}</span>
          </div>
          <span className={styles.summaryArrow} aria-hidden="true">
            →
          </span>
          <div className={styles.summarySide}>
            <span className={styles.summaryLabel}>You receive</span>
            <span className={styles.summaryAmount}>{assetLabel(tx.dstAmount, tx.dstAsset)}</span>
            <span className={styles.chainName}>on {chainName(tx.dstAsset.chain)}</span>
          </div>
        </div>

        <p className={styles.meta}>
          {final
            ? 'Final status — this page no longer refreshes.'
            : `Checking every ${POLL_MS / 1000} seconds · last checked ${timeFormat.format(checkedAt)}`}
        </p>
        {refreshError && (
          <p className={`${styles.notice} ${styles.spaced}`}>
            Could not refresh the status ({refreshError.message}). Retrying…
          </p>
        )}
      </section>

      <section className={styles.panel} aria-labelledby="details-title">
        <h2 id="details-title" className={styles.panelTitle}>
          Details
        </h2>
        <dl className={styles.details}>
          <dt>Provider</dt>
          <dd>{providerName(tx.provider)}</dd>
          <dt>Fee</dt>
          <dd className={styles.value}>{fee}</dd>
          <HashRow label="Source wallet" value={tx.walletAddress} />
          <HashRow label="Destination wallet" value={tx.recipientWalletAddress} />
          <HashRow label="Hash" value={tx.hash} />
          <HashRow label="Inbound hash" value={tx.inboundHash} />
          <HashRow label="Outbound hash" value={tx.outboundHash} />
          <dt>Created</dt>
          <dd className={styles.value}>{formatDateTime(tx.createdAt)}</dd>
          <dt>Updated</dt>
          <dd className={styles.value}>{formatDateTime(tx.updatedAt)}</dd>
        </dl>
      </section>
    </div>
  );
}

/** Polls every few seconds until the status is final; a retry remounts the view and starts over. */
export function TransactionTracker({ transactionId }: { transactionId: string }) {
  const [attempt, setAttempt] = useState(0);
  return <TrackerView key={attempt} transactionId={transactionId} onRetry={() => setAttempt((n) => n + 1)} />;
}

function TrackerView({ transactionId, onRetry }: { transactionId: string; onRetry: () => void }) {
  const state = usePolledStatus(transactionId);

  if (state.kind === 'not-found') {
    return (
      <section className={`${styles.panel} ${styles.empty}`} aria-labelledby="nf-title">
        <div className={styles.emptyIcon} aria-hidden="true">
          ?
        </div>
        <h1 id="nf-title" className={styles.title}>
          Transaction not found
        </h1>
        <p>
          No swap has the ID <code className={styles.mono}>{transactionId}</code>. Check the link you followed — IDs
          look like <code className={styles.mono}>tx_</code> followed by 22 letters and digits.
        </p>
        <div className={`${styles.actions} ${styles.actionsCenter}`}>
          <Link href="/" className={styles.button}>
            Start a swap
          </Link>
        </div>
      </section>
    );
  }

  return (
    <>
      <div className={styles.pageHead}>
        <div>
          <h1 className={styles.title}>Swap status</h1>
          <p className={styles.idLine}>
            <span className={styles.srOnly}>Transaction ID </span>
            {transactionId}
          </p>
        </div>
        <Link href="/" className={styles.buttonSecondary}>
          New swap
        </Link>
      </div>

      {state.kind === 'loading' && (
        <div className={styles.stacked} aria-busy="true">
          <section className={styles.panel}>
            <p className={styles.panelSub} role="status">
              Loading the swap…
            </p>
            <div className={styles.skeleton} />
          </section>
          <section className={styles.panel} aria-hidden="true">
            <div className={styles.skeleton} />
          </section>
        </div>
      )}
      {state.kind === 'error' && (
        <section className={styles.panel}>
          <p className={styles.alert} role="alert">
            <strong>Could not load this swap.</strong> {state.error.message}
          </p>
          <div className={styles.actions}>
            <button type="button" className={styles.buttonSecondary} onClick={onRetry}>
              Try again
            </button>
          </div>
        </section>
      )}
      {state.kind === 'ready' && <Ready {...state} />}
    </>
  );
}
