'use client';

import Link from 'next/link';
import { useState } from 'react';
import { VisuallyHidden } from '@/app/_kit/a11y';
import { buttonClass } from '@/app/_kit/Button';
import { Detail, DetailList } from '@/app/_kit/DetailList';
import { formatLocalDateTime, formatLocalTime, formatUsd } from '@/app/_kit/format';
import { Hash } from '@/app/_kit/Hash';
import layout from '@/app/_kit/layout.module.css';
import { Notice } from '@/app/_kit/Notice';
import { PageHeader, Panel } from '@/app/_kit/Panel';
import { StatusBadge } from '@/app/_kit/StatusBadge';
import { SwapSummary } from '@/app/_kit/SwapSummary';
import { EmptyState, ErrorState, LoadingState } from '@/app/_kit/states';
import text from '@/app/_kit/text.module.css';

import type { TxAsset } from '../../_lib/api';
import { useCatalog } from '../../_lib/useCatalog';
import styles from './tracker.module.css';
import { POLL_MS, type TrackerState, usePolledStatus } from './usePolledStatus';

const STATUS_TEXT: Record<string, string> = {
  PENDING: 'The swap is in progress. This page updates on its own.',
  SUCCESS: 'The swap completed and the funds were delivered.',
  FAILED: 'The swap failed. If funds were sent, the provider may still refund them.',
  REFUND: 'The swap was refunded to the source wallet.',
};

const assetLabel = (amount: string, asset: TxAsset) => `${amount} ${asset.symbol ?? ''}`.trim();

function HashDetail({ label, value }: { label: string; value: string | null }) {
  return (
    <Detail label={label}>
      {value ? (
        <Hash value={value} copy={`Copy ${label.toLowerCase()}`} />
      ) : (
        <span className={text.muted}>Not known yet</span>
      )}
    </Detail>
  );
}

function Ready({ tx, final, checkedAt, refreshError }: Extract<TrackerState, { kind: 'ready' }>) {
  const { chainName, providerName } = useCatalog();
  return (
    <div className={layout.stack}>
      <Panel title="Status" headingId="status-title">
        <div className={styles.statusLine} role="status" aria-atomic="true">
          <StatusBadge status={tx.status} large />
          <p className={styles.statusText}>{STATUS_TEXT[tx.status] ?? 'Status reported by the provider.'}</p>
        </div>

        <SwapSummary
          className={styles.summary}
          send={{ amount: assetLabel(tx.srcAmount, tx.srcAsset), extra: `on ${chainName(tx.srcAsset.chain)}` }}
          receive={{ amount: assetLabel(tx.dstAmount, tx.dstAsset), extra: `on ${chainName(tx.dstAsset.chain)}` }}
        />

        <p className={styles.meta}>
          {final
            ? 'Final status — this page no longer refreshes.'
            : `Checking every ${POLL_MS / 1000} seconds · last checked ${formatLocalTime(checkedAt)}`}
        </p>
        {refreshError && (
          <Notice tone="warning" className={layout.spaced}>
            Could not refresh the status ({refreshError.message}). Retrying…
          </Notice>
        )}
      </Panel>

      <Panel title="Details" headingId="details-title">
        <DetailList>
          <Detail label="Provider">{providerName(tx.provider)}</Detail>
          <Detail label="Fee">
            <span className={text.value}>{formatUsd(tx.fee.amountUsd ?? tx.fee.usd, tx.fee.formatted ?? '—')}</span>
          </Detail>
          <HashDetail label="Source wallet" value={tx.walletAddress} />
          <HashDetail label="Destination wallet" value={tx.recipientWalletAddress} />
          <HashDetail label="Hash" value={tx.hash} />
          <HashDetail label="Inbound hash" value={tx.inboundHash} />
          <HashDetail label="Outbound hash" value={tx.outboundHash} />
          <Detail label="Created">
            <span className={text.value}>{formatLocalDateTime(tx.createdAt)}</span>
          </Detail>
          <Detail label="Updated">
            <span className={text.value}>{formatLocalDateTime(tx.updatedAt)}</span>
          </Detail>
        </DetailList>
      </Panel>
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
      <Panel>
        <EmptyState
          icon="?"
          title="Transaction not found"
          titleAs="h1"
          actions={
            <Link href="/" className={buttonClass({ variant: 'primary', size: 'large' })}>
              Start a swap
            </Link>
          }
        >
          <p>
            No swap has the ID <code className={text.mono}>{transactionId}</code>. Check the link you followed — IDs
            look like <code className={text.mono}>tx_</code> followed by 22 letters and digits.
          </p>
        </EmptyState>
      </Panel>
    );
  }

  return (
    <>
      <PageHeader
        title="Swap status"
        lead={
          <span className={styles.idLine}>
            <VisuallyHidden>Transaction ID </VisuallyHidden>
            {transactionId}
          </span>
        }
        actions={
          <Link href="/" className={buttonClass({ size: 'large' })}>
            New swap
          </Link>
        }
      />

      {state.kind === 'loading' && (
        <div className={layout.stack} aria-busy="true">
          <Panel>
            <LoadingState label="Loading the swap…" rows={1} shape="blocks" />
          </Panel>
          <Panel>
            <LoadingState label={null} rows={1} shape="blocks" />
          </Panel>
        </div>
      )}
      {state.kind === 'error' && (
        <Panel>
          <ErrorState title="Could not load this swap." message={state.error.message} onRetry={onRetry} />
        </Panel>
      )}
      {state.kind === 'ready' && <Ready {...state} />}
    </>
  );
}
