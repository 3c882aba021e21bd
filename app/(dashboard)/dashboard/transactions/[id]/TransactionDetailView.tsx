'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from '@/app/_kit/Button';
import { CodeBlock } from '@/app/_kit/CodeBlock';
import { Detail, DetailList } from '@/app/_kit/DetailList';
import {
  formatAmount,
  formatCountOf,
  formatDateTime,
  formatTimeSpan,
  formatUsd,
  formatUsualDuration,
} from '@/app/_kit/format';
import { Hash } from '@/app/_kit/Hash';
import layout from '@/app/_kit/layout.module.css';
import { FormStatus, Notice } from '@/app/_kit/Notice';
import { PageHeader, Panel } from '@/app/_kit/Panel';
import { RelativeTime } from '@/app/_kit/RelativeTime';
import { RefundText, receivedSide, SettledFee } from '@/app/_kit/Settlement';
import { StatusBadge } from '@/app/_kit/StatusBadge';
import { SwapSummary } from '@/app/_kit/SwapSummary';
import { EmptyState, ErrorState, LoadingState } from '@/app/_kit/states';
import { swapperSees } from '@/app/_kit/substatus';
import text from '@/app/_kit/text.module.css';
import { providerName } from '@/server/catalog/names';
import { CsvExportStatus, ExportCsvButton, useCsvExport } from '../../../_components/CsvExport';
import { describeError } from '../../../_components/query-error';
import { type RouterOutputs, useTRPC } from '../../../_trpc/client';
import { transactionsExportHref } from '../search-params';
import styles from './detail.module.css';
import { Timeline } from './Timeline';
import { WebhookDeliveries } from './WebhookDeliveries';

type TransactionDetail = RouterOutputs['transactions']['detail'];

const back = { href: '/dashboard/transactions', label: 'Transactions' };

export function TransactionDetailView({ id, canRedeliver }: { id: string; canRedeliver: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const detail = useQuery(trpc.transactions.detail.queryOptions({ id }));
  const csv = useCsvExport();
  const poll = useMutation(
    trpc.transactions.pollNow.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.transactions.detail.queryKey({ id }) }),
    }),
  );

  if (!detail.isSuccess) {
    const error = detail.isError ? describeError(detail.error) : null;
    return (
      <>
        <PageHeader title={<span className={styles.titleId}>{id}</span>} back={back} />
        <Panel>
          {!error ? (
            <LoadingState label="Loading the transaction…" rows={8} />
          ) : error.code === 'NOT_FOUND' ? (
            <EmptyState title="Transaction not found">
              No transaction has the id <span className={text.mono}>{id}</span>. Search by hash or wallet instead.
            </EmptyState>
          ) : (
            <ErrorState message={error.message} onRetry={() => detail.refetch()} />
          )}
        </Panel>
      </>
    );
  }

  const { transaction: tx, tracking } = detail.data;
  return (
    <>
      <PageHeader
        title={
          <span className={styles.titleLine}>
            <span className={styles.titleId}>{tx.id}</span>
            <StatusBadge status={tx.status} />
            {tracking.stale ? <StatusBadge status="stale" label="Stale" /> : null}
            {tx.late ? <StatusBadge status="stale" label="Late" /> : null}
          </span>
        }
        lead={`${providerName(tx.provider)} · created ${formatDateTime(tx.createdAt)}`}
        back={back}
        actions={
          <span className={layout.inline}>
            <ExportCsvButton control={csv} size="medium" href={transactionsExportHref({ query: tx.id })} />
            <Button variant="primary" onClick={() => poll.mutate({ id })} busy={poll.isPending}>
              {poll.isPending ? 'Polling…' : 'Poll now'}
            </Button>
          </span>
        }
      />
      <CsvExportStatus control={csv} />
      <div aria-live="polite" className={styles.pollStatus}>
        {poll.isSuccess ? <PollOutcome provider={providerName(tx.provider)} result={poll.data} /> : null}
        {poll.isError ? (
          <FormStatus tone="error" role="alert">
            Poll failed: {describeError(poll.error).message}
          </FormStatus>
        ) : null}
      </div>
      <div className={layout.stack}>
        <DetailPanels detail={detail.data} />
        <WebhookDeliveries transactionId={id} canRedeliver={canRedeliver} />
      </div>
    </>
  );
}

function PollOutcome({ provider, result }: { provider: string; result: RouterOutputs['transactions']['pollNow'] }) {
  if (!result.polled) {
    return (
      <Notice tone="warning" title="Not polled:">
        {result.reason}. Status stays {result.status}.
      </Notice>
    );
  }
  if (result.providerError) {
    return (
      <FormStatus tone="error" role="alert">
        Polled {provider}, which did not answer: {result.providerError}. Status stays <strong>{result.status}</strong>.
      </FormStatus>
    );
  }
  return (
    <FormStatus tone="success">
      Polled {provider} at {formatDateTime(result.lastPolledAt)}: status is now <strong>{result.status}</strong>
      {result.keepTracking ? ', still tracking.' : '.'}
    </FormStatus>
  );
}

function DetailPanels({
  detail: { transaction: tx, hashes, tracking, providerContext, events, routeTime },
}: {
  detail: TransactionDetail;
}) {
  const settled = {
    ...tx,
    srcAsset: { ...tx.srcAsset, chain: tx.srcChain },
    dstAsset: { ...tx.dstAsset, chain: tx.dstChain },
  };
  const chainName = (key: string) => (key === tx.srcChain ? tx.srcChainName : tx.dstChainName);
  return (
    <div className={layout.stack}>
      <div className={layout.grid2}>
        <Panel title="Swap">
          <SwapSummary
            className={styles.summary}
            send={{ amount: formatAmount(tx.srcAmount, tx.srcAsset.symbol), extra: `on ${tx.srcChainName}` }}
            {...receivedSide(settled, chainName, ['Source', 'Destination'], ['Source', 'Refunded'])}
          />
          <DetailList>
            <Detail label="Value">{formatUsd(tx.amountUsd)}</Detail>
            <Detail label="Fee">
              <SettledFee tx={settled} usd={tx.fee.usd} quotedUsd={tx.fee.quotedUsd} details={tx.fee.items} />
            </Detail>
            {settled.refund && (
              <Detail label="Refund">
                <RefundText tx={{ ...settled, refund: settled.refund }} />
              </Detail>
            )}
            <Detail label="Provider">{providerName(tx.provider)}</Detail>
            <Detail label="From wallet">
              <Hash value={tx.walletAddress} copy={`Copy ${tx.walletAddress}`} />
            </Detail>
            <Detail label="Recipient">
              <Hash value={tx.recipientWalletAddress} copy={`Copy ${tx.recipientWalletAddress}`} />
            </Detail>
            <Detail label="Lock">
              <span className={text.mono}>{tx.lockId}</span>
            </Detail>
            <Detail label="Referral code">
              {tx.referralCode === null ? (
                <span className={text.muted}>none</span>
              ) : (
                <>
                  <span className={text.mono}>{tx.referralCode}</span>
                  {tx.referralCredited ? null : (
                    <span className={text.muted}> (credits nobody: not a registered, active code when used)</span>
                  )}
                </>
              )}
            </Detail>
            <Detail label="Updated">{formatDateTime(tx.updatedAt)}</Detail>
            <Detail label="Finalized">{formatDateTime(tx.finalizedAt)}</Detail>
          </DetailList>
        </Panel>
        <div className={layout.stack}>
          <Panel title="Hashes">
            <DetailList>
              {hashes.map((h) => (
                <Detail key={h.label} label={h.label}>
                  <Hash value={h.value} href={h.url} short copy={h.value ? `Copy ${h.value}` : undefined} />
                </Detail>
              ))}
            </DetailList>
          </Panel>
          <Panel title="Tracking">
            <DetailList>
              <Detail label="Next poll">
                {tracking.nextPollAt ? (
                  <>
                    <RelativeTime value={tracking.nextPollAt} />{' '}
                    <span className={text.muted}>({formatDateTime(tracking.nextPollAt)})</span>
                  </>
                ) : tracking.pollable ? (
                  'not scheduled'
                ) : (
                  'done: final status'
                )}
              </Detail>
              <Detail label="Last polled">
                {tracking.lastPolledAt ? <RelativeTime value={tracking.lastPolledAt} /> : 'never'}
              </Detail>
              <Detail label="Attempts">
                {formatCountOf(tracking.pollAttempts, 'poll')},{' '}
                {formatCountOf(tracking.pollErrors, 'consecutive error')}
              </Detail>
              <Detail label="Last poll error">
                {tracking.lastPollError ?? <span className={text.muted}>none</span>}
              </Detail>
              <Detail label="Swapper sees">
                <SwapperSees tx={tx} routeTime={routeTime} />
              </Detail>
              <Detail label="Upstream state">
                <span className={text.mono}>{tracking.lastUpstreamState ?? '—'}</span>
              </Detail>
              <Detail label="Stale">
                {tracking.stale ? <StatusBadge status="stale" label="Stale: needs a look" /> : 'no'}
              </Detail>
              <Detail label="Time">
                <RouteTime tx={tx} time={routeTime} />
              </Detail>
            </DetailList>
          </Panel>
        </div>
      </div>
      <Panel title="Timeline" note={`${formatCountOf(events.length, 'event')}, oldest first`}>
        {events.length === 0 ? <EmptyState title="No events yet" /> : <Timeline events={events} />}
      </Panel>
      <div className={layout.grid2}>
        <Panel title="Tracking context" note="secrets redacted">
          <CodeBlock>{JSON.stringify(providerContext.trackingContext, null, 2)}</CodeBlock>
        </Panel>
        <Panel title="Provider result" note="secrets redacted">
          <CodeBlock>{JSON.stringify(providerContext.providerResult, null, 2)}</CodeBlock>
        </Panel>
      </div>
    </div>
  );
}

/** The /tx status line's words, as the swapper reads them now. */
function SwapperSees({
  tx,
  routeTime,
}: {
  tx: TransactionDetail['transaction'];
  routeTime: TransactionDetail['routeTime'];
}) {
  const known = tx.status === 'PENDING' && routeTime.expectedBy !== null;
  const { headline, text: sentence } = swapperSees(tx, providerName(tx.provider), { known });
  return (
    <span data-testid="swapper-sees">
      {headline ? <strong>{headline}. </strong> : null}
      {sentence}
    </span>
  );
}

/** How long the swap has taken against its route's normal (the p50–p90 shown at lock), and whether it is late. */
function RouteTime({ tx, time }: { tx: TransactionDetail['transaction']; time: TransactionDetail['routeTime'] }) {
  const { shown } = time;
  const normal = shown
    ? shown.source === 'observed'
      ? `usually ${formatTimeSpan(shown.p50Seconds, shown.p90Seconds)} on this route (p50–p90 of ${shown.samples} swaps)`
      : `the provider's estimate was ${formatUsualDuration(shown.p50Seconds)} (too few of our swaps on this route)`
    : 'no route time was shown when it was quoted';
  const took = `${tx.status === 'PENDING' ? 'In flight' : 'Took'} ${formatUsualDuration(time.seconds)}`;
  return (
    <span data-testid="route-time">
      {took}; {normal}.
      {tx.late && tx.overdueSeconds !== null && shown ? (
        <>
          {' '}
          <StatusBadge status="stale" label="Late" /> {formatUsualDuration(tx.overdueSeconds)} past its usual time
          {time.seconds >= shown.p50Seconds
            ? ` (${(time.seconds / Math.max(1, shown.p50Seconds)).toFixed(1)}× the route's p50)`
            : ''}
          ; late since {formatDateTime(time.lateAt)}.
        </>
      ) : time.expectedBy && tx.status === 'PENDING' ? (
        <> Usually done by {formatDateTime(time.expectedBy)}.</>
      ) : null}
    </span>
  );
}
