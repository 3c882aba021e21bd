'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/trpc/routers/_app';
import styles from '../../../_components/dash.module.css';
import { formatDateTime, formatRelative, formatUsd } from '../../../_components/format';
import { Hash } from '../../../_components/Hash';
import { PageHeader, Panel } from '../../../_components/layout-parts';
import { describeError } from '../../../_components/query-error';
import { StatusBadge } from '../../../_components/StatusBadge';
import { EmptyState, ErrorState, LoadingState } from '../../../_components/states';
import { useTRPC } from '../../../_trpc/client';

type Detail = inferRouterOutputs<AppRouter>['transactions']['detail'];
type TimelineEvent = Detail['events'][number];

const back = { href: '/dashboard/transactions', label: 'Transactions' };

export function TransactionDetailView({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const detail = useQuery(trpc.transactions.detail.queryOptions({ id }));
  const poll = useMutation(
    trpc.transactions.pollNow.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.transactions.detail.queryKey({ id }) }),
    }),
  );

  if (detail.isPending) {
    return (
      <>
        <PageHeader title={<span className={styles.mono}>{id}</span>} back={back} />
        <div className={styles.panel}>
          <LoadingState label="Loading the transaction…" rows={8} />
        </div>
      </>
    );
  }
  if (detail.isError) {
    const { code, message } = describeError(detail.error);
    return (
      <>
        <PageHeader title={<span className={styles.mono}>{id}</span>} back={back} />
        <div className={styles.panel}>
          {code === 'NOT_FOUND' ? (
            <EmptyState title="Transaction not found">
              No transaction has the id <span className={styles.mono}>{id}</span>. Search by hash or wallet instead.
            </EmptyState>
          ) : (
            <ErrorState message={message} onRetry={() => detail.refetch()} />
          )}
        </div>
      </>
    );
  }

  const { transaction: tx, hashes, tracking, providerContext, events } = detail.data;
  return (
    <>
      <PageHeader
        title={
          <span className={styles.linkCell}>
            <span className={styles.mono}>{tx.id}</span>
            <StatusBadge status={tx.status} />
            {tracking.stale ? <StatusBadge status="stale" label="Stale" /> : null}
          </span>
        }
        lead={`${tx.provider} · created ${formatDateTime(tx.createdAt)}`}
        back={back}
        actions={
          <div className={styles.linkCell}>
            <button
              type="button"
              className={`${styles.button} ${styles.buttonPrimary}`}
              onClick={() => poll.mutate({ id })}
              disabled={poll.isPending}
            >
              {poll.isPending ? 'Polling…' : 'Poll now'}
            </button>
          </div>
        }
      />
      <div aria-live="polite">
        {poll.isSuccess ? (
          <p className={styles.formSuccess} style={{ marginTop: -8, marginBottom: 16 }}>
            Polled {tx.provider}: status is now <strong>{poll.data.status}</strong>
            {poll.data.keepTracking ? ', still tracking.' : '.'}
          </p>
        ) : null}
        {poll.isError ? (
          <p className={styles.formError} style={{ marginTop: -8, marginBottom: 16 }} role="alert">
            Poll failed: {describeError(poll.error).message}
          </p>
        ) : null}
      </div>
      <div className={styles.stack}>
        <div className={styles.grid2}>
          <Panel title="Swap">
            <div className={styles.swapLine}>
              <div className={styles.swapSide}>
                <span>
                  {tx.srcAmount} {tx.srcAsset.symbol}
                </span>
                <span className={styles.swapChain}>on {tx.srcChainName}</span>
              </div>
              <span className={styles.arrow} aria-hidden="true">
                →
              </span>
              <span className={styles.srOnly}>to</span>
              <div className={styles.swapSide}>
                <span>
                  {tx.dstAmount} {tx.dstAsset.symbol}
                </span>
                <span className={styles.swapChain}>on {tx.dstChainName}</span>
              </div>
            </div>
            <dl className={styles.dl} style={{ marginTop: 18 }}>
              <dt>Value</dt>
              <dd>{formatUsd(tx.amountUsd)}</dd>
              <dt>Quoted fee</dt>
              <dd>{tx.fee.quotedUsd != null ? formatUsd(tx.fee.quotedUsd) : '—'}</dd>
              <dt>Recorded fee</dt>
              <dd>
                {tx.fee.recordedAmount ? (
                  `${tx.fee.recordedAmount} ${tx.fee.recordedCurrency ?? ''}`
                ) : (
                  <span className={styles.muted}>not reported by the provider yet</span>
                )}
                {tx.fee.recordedUsd != null ? (
                  <span className={styles.muted}> ({formatUsd(tx.fee.recordedUsd)})</span>
                ) : null}
              </dd>
              <dt>Provider</dt>
              <dd>{tx.provider}</dd>
              <dt>From wallet</dt>
              <dd>
                <Hash value={tx.walletAddress} full copy />
              </dd>
              <dt>Recipient</dt>
              <dd>
                <Hash value={tx.recipientWalletAddress} full copy />
              </dd>
              <dt>Lock</dt>
              <dd className={styles.mono}>{tx.lockId}</dd>
              <dt>Referral code</dt>
              <dd>{tx.referralCode ?? <span className={styles.muted}>none</span>}</dd>
              <dt>Updated</dt>
              <dd>{formatDateTime(tx.updatedAt)}</dd>
              <dt>Finalized</dt>
              <dd>{formatDateTime(tx.finalizedAt)}</dd>
            </dl>
          </Panel>
          <div className={styles.stack}>
            <Panel title="Hashes">
              <dl className={styles.dl}>
                {hashes.map((h) => (
                  <div key={h.label} style={{ display: 'contents' }}>
                    <dt>{h.label}</dt>
                    <dd>
                      <Hash value={h.value} href={h.url} copy />
                    </dd>
                  </div>
                ))}
              </dl>
            </Panel>
            <Panel title="Tracking">
              <dl className={styles.dl}>
                <dt>Next poll</dt>
                <dd>
                  {tracking.nextPollAt ? (
                    <>
                      {formatRelative(tracking.nextPollAt)}{' '}
                      <span className={styles.muted}>({formatDateTime(tracking.nextPollAt)})</span>
                    </>
                  ) : tracking.pollable ? (
                    'not scheduled'
                  ) : (
                    'done: final status'
                  )}
                </dd>
                <dt>Last polled</dt>
                <dd>{tracking.lastPolledAt ? formatRelative(tracking.lastPolledAt) : 'never'}</dd>
                <dt>Attempts</dt>
                <dd>
                  {tracking.pollAttempts} polls, {tracking.pollErrors} consecutive errors
                </dd>
                <dt>Last poll error</dt>
                <dd>{tracking.lastPollError ?? <span className={styles.muted}>none</span>}</dd>
                <dt>Upstream state</dt>
                <dd className={styles.mono}>{tracking.lastUpstreamState ?? '—'}</dd>
                <dt>Stale</dt>
                <dd>{tracking.stale ? <StatusBadge status="stale" label="Stale: needs a look" /> : 'no'}</dd>
              </dl>
            </Panel>
          </div>
        </div>
        <Panel title="Timeline" note={`${events.length} events, oldest first`}>
          {events.length === 0 ? (
            <EmptyState title="No events yet" />
          ) : (
            <ol className={styles.timeline}>
              {events.map((event) => (
                <TimelineItem key={event.id} event={event} />
              ))}
            </ol>
          )}
        </Panel>
        <div className={styles.grid2}>
          <Panel title="Tracking context" note="secrets redacted">
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe scrollable-region-focusable) */}
            <pre className={styles.json} tabIndex={0}>
              {JSON.stringify(providerContext.trackingContext, null, 2)}
            </pre>
          </Panel>
          <Panel title="Provider result" note="secrets redacted">
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe scrollable-region-focusable) */}
            <pre className={styles.json} tabIndex={0}>
              {JSON.stringify(providerContext.providerResult, null, 2)}
            </pre>
          </Panel>
        </div>
      </div>
    </>
  );
}

const EVENT_DOTS: Record<string, string | undefined> = {
  status_changed: styles.dotSuccess,
  poll_error: styles.dotError,
  ignored_regression: styles.dotWarn,
  hash_updated: styles.dotInfo,
  track: styles.dotInfo,
  manual_poll: styles.dotWarn,
};

function TimelineItem({ event }: { event: TimelineEvent }) {
  const failed = event.type === 'status_changed' && (event.toStatus === 'FAILED' || event.toStatus === 'REFUND');
  return (
    <li className={styles.timelineItem}>
      <span className={`${styles.timelineDot} ${failed ? styles.dotError : (EVENT_DOTS[event.type] ?? '')}`} />
      <div className={styles.timelineMeta}>
        <span className={styles.timelineType}>{event.type.replaceAll('_', ' ')}</span>
        {event.toStatus ? <StatusBadge status={event.toStatus} /> : null}
        <time dateTime={new Date(event.createdAt).toISOString()}>{formatDateTime(event.createdAt)}</time>
      </div>
      <p className={styles.timelineMessage}>{event.message}</p>
    </li>
  );
}
