'use client';

import Link from 'next/link';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { VisuallyHidden } from '@/app/_kit/a11y';
import { buttonClass } from '@/app/_kit/Button';
import { Detail, DetailList } from '@/app/_kit/DetailList';
import { formatAmount, formatEstimate } from '@/app/_kit/format';
import { Hash } from '@/app/_kit/Hash';
import { LocalTime } from '@/app/_kit/LocalTime';
import layout from '@/app/_kit/layout.module.css';
import { PageHeader, Panel } from '@/app/_kit/Panel';
import { RefundText, receivedSide, SettledFee } from '@/app/_kit/Settlement';
import { StatusBadge } from '@/app/_kit/StatusBadge';
import { SwapSummary } from '@/app/_kit/SwapSummary';
import { EmptyState, ErrorState, LoadingState } from '@/app/_kit/states';
import { delayNotice, type SwapTime, swapperSees } from '@/app/_kit/substatus';
import text from '@/app/_kit/text.module.css';
import { useHydrated, usePassed } from '@/app/_kit/usePassed';
import type {
  Asset,
  Chain,
  Source,
  TimelineEvent,
  Transaction,
  TransactionExecution,
  TransactionStatus,
  TxAsset,
} from '../../_lib/api';
import { useCatalog } from '../../_lib/useCatalog';
import { SentNotice, staleOnceFinal } from '../../_swap/SentNotice';
import type { WalletSend } from '../../_swap/track-outcome';
import { OutstandingAction, useExecution } from './OutstandingAction';
import { Timeline } from './Timeline';
import styles from './tracker.module.css';
import { type TrackerState, useStatusStream } from './useStatusStream';

/** The swap as the server read it for this page: what the status, execution, timeline and catalog endpoints answer. */
export interface TrackerInitial {
  status: TransactionStatus;
  execution: TransactionExecution;
  timeline: TimelineEvent[];
  chains: Chain[];
  sources: Source[];
  sourceAssets: { src: Asset | null; native: Asset | null };
  readAt: number;
}

const assetLabel = (amount: string, asset: TxAsset) => formatAmount(amount, asset.symbol);

function HashDetail({ label, value, href }: { label: string; value: string | null; href?: string }) {
  return (
    <Detail label={label}>
      {value ? (
        <Hash value={value} href={href} copy={`Copy ${label.toLowerCase()}`} />
      ) : (
        <span className={text.muted}>Not known yet</span>
      )}
    </Detail>
  );
}

/** When a pending swap is due: its creation plus how long swaps like it take; null when not known. */
const dueAt = (tx: Transaction, estimatedSeconds: number | undefined) =>
  estimatedSeconds ? Date.parse(tx.createdAt) + estimatedSeconds * 1000 : null;

/**
 * How long swaps like this take, and when this one should be done (or how long it took). No time to
 * expect while the swap waits for the swapper (its clock starts with the deposit), and none in the past.
 */
function timing(
  tx: Transaction,
  final: boolean,
  estimatedSeconds: number | undefined,
  { awaitingSwapper, late, passed }: { awaitingSwapper: boolean; late: boolean; passed: boolean },
): ReactNode {
  if (final) {
    const took = (Date.parse(tx.updatedAt) - Date.parse(tx.createdAt)) / 1000;
    return took > 0 ? `Took ${formatEstimate(took).replace('~', 'about ')}` : null;
  }
  const due = dueAt(tx, estimatedSeconds);
  if (!estimatedSeconds || due === null) return null;
  const usually = `Usually takes ${formatEstimate(estimatedSeconds)} once the deposit confirms`;
  if (awaitingSwapper) return usually;
  if (late) return `${usually}; this one is taking longer, and is still being followed`;
  // Past the estimate with another notice (stale) saying so: no time to expect, and no second notice.
  if (passed) return usually;
  return (
    <>
      {usually} · expected around <LocalTime value={due} />
    </>
  );
}

/** From the route's own history (`expectedBy`): when it is usually done, and past that, plainly what happens now. */
function expectedTiming(expected: number, late: boolean, provider: string): ReactNode {
  if (!late) {
    return (
      <span data-testid="expected-by">
        Usually done by <LocalTime value={expected} seconds={false} />
      </span>
    );
  }
  return (
    <span data-testid="expected-by" className={styles.longer}>
      <strong>Taking longer than usual.</strong> Most swaps on this route are done by now (
      <LocalTime value={expected} seconds={false} />
      ). Nothing is lost: {provider} is still working on it and we keep checking; when it finishes, the funds arrive or
      go back to your wallet, and this page shows which. Our support team sees late swaps too.
    </span>
  );
}

const CONNECTION_TEXT = {
  /** What the server's HTML says: without the page's script it never connects. */
  static: 'This page shows the swap as it was when it loaded: reload it to see changes.',
  opening: 'Connecting to live updates…',
  lost: 'Reconnecting to live updates…',
} as const;

function Ready({
  tx,
  final,
  expectedBy,
  receivedAt,
  connection,
  initial,
}: Extract<TrackerState, { kind: 'ready' }> & { initial?: TrackerInitial }) {
  const { chainName, chainNameById, providerName } = useCatalog(initial);
  const execution = useExecution(tx.id, initial?.execution);
  const [walletSend, setWalletSend] = useState<WalletSend | null>(null);
  const awaitingSwapper = execution?.outstanding === true && tx.status === 'PENDING' && !tx.hash && !tx.inboundHash;
  const sentNotice = useRef<HTMLDivElement>(null);
  const showSent = walletSend !== null && !awaitingSwapper && !(final && staleOnceFinal(walletSend));
  const statusLine = useRef<HTMLDivElement>(null);
  // The wallet steps just went away with the button that had the focus: it moves to what became of the send
  // (also from the status line, where it lands when the stream saw the hash before the send was told).
  useEffect(() => {
    const lost = document.activeElement === document.body || document.activeElement === statusLine.current;
    if (showSent && lost) sentNotice.current?.focus();
  }, [showSent]);
  // "I've sent it" went away with its panel once the hash was taken: the focus moves to the status it changed.
  const wasAwaiting = useRef(awaitingSwapper);
  useEffect(() => {
    if (wasAwaiting.current && !awaitingSwapper && !showSent && document.activeElement === document.body) {
      statusLine.current?.focus();
    }
    wasAwaiting.current = awaitingSwapper;
  }, [awaitingSwapper, showSent]);
  // The notice of a send went away with the swap's end: the focus it had moves to the status that ended it.
  const wasShown = useRef(showSent);
  useEffect(() => {
    if (wasShown.current && !showSent && document.activeElement === document.body) statusLine.current?.focus();
    wasShown.current = showSent;
  }, [showSent]);
  const hydrated = useHydrated();
  const estimatedSeconds = execution?.result?.quote?.estimatedTime;
  const expected = expectedBy ? Date.parse(expectedBy) : null;
  const running = !final && !awaitingSwapper;
  const time: SwapTime = {
    known: running && expected !== null,
    passed: usePassed(running ? (expected ?? dueAt(tx, estimatedSeconds)) : null),
  };
  const late = delayNotice(tx, time) === 'late';
  const estimate =
    expected !== null && running
      ? expectedTiming(expected, late, providerName(tx.provider))
      : timing(tx, final, estimatedSeconds, { awaitingSwapper, late, passed: time.passed });
  const links = tx.explorerUrls;
  const seen = swapperSees(tx, providerName(tx.provider), time);
  return (
    <div className={layout.stack}>
      <Panel title="Status" headingId="status-title">
        <div className={styles.statusLine} role="status" aria-atomic="true" ref={statusLine} tabIndex={-1}>
          <StatusBadge status={tx.status} large />
          <p className={styles.statusText}>
            {seen.headline ? <strong className={styles.substatus}>{seen.headline}. </strong> : null}
            {seen.text}
          </p>
        </div>

        <SwapSummary
          className={styles.summary}
          send={{ amount: assetLabel(tx.srcAmount, tx.srcAsset), extra: `on ${chainName(tx.srcAsset.chain)}` }}
          {...receivedSide(tx, chainName, ['You send', 'You receive'], ['You sent', 'Returned to you'])}
        />

        {estimate && <p className={styles.meta}>{estimate}</p>}
        <p className={styles.meta} data-testid="stream-state">
          {final ? (
            'Final status — this page no longer updates.'
          ) : connection === 'live' ? (
            <>
              Live: changes appear as they happen · last update <LocalTime value={receivedAt} />
            </>
          ) : (
            CONNECTION_TEXT[hydrated ? connection : 'static']
          )}
        </p>
        {showSent && <SentNotice send={walletSend} focusRef={sentNotice} />}
        {links.provider && (
          <p className={styles.meta}>
            <a href={links.provider} target="_blank" rel="noopener noreferrer">
              Follow it on {providerName(tx.provider)}&apos;s tracker
              <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
            </a>
          </p>
        )}
      </Panel>

      {awaitingSwapper && (
        <OutstandingAction
          transactionId={tx.id}
          result={execution?.result ?? null}
          providerName={providerName(tx.provider)}
          srcAsset={tx.srcAsset}
          sourceAssets={initial?.sourceAssets}
          depositor={tx.walletAddress}
          chainName={chainNameById}
          onSent={setWalletSend}
        />
      )}

      <Timeline
        transactionId={tx.id}
        initial={initial?.timeline}
        refundHash={tx.refund?.hash ?? ''}
        version={`${tx.status}:${tx.substatus}:${tx.hash}:${tx.outboundHash}:${receivedAt}`}
      />

      <Panel title="Details" headingId="details-title">
        <DetailList>
          <Detail label="Provider">{providerName(tx.provider)}</Detail>
          <Detail label="Fee">
            <SettledFee tx={tx} usd={tx.fee.amountUsd ?? tx.fee.usd} quotedUsd={tx.fee.usd} details={tx.fee.details} />
          </Detail>
          {tx.refund && (
            <Detail label="Refund">
              <RefundText tx={{ ...tx, refund: tx.refund }} />
            </Detail>
          )}
          <HashDetail label="Source wallet" value={tx.walletAddress} />
          <HashDetail label="Destination wallet" value={tx.recipientWalletAddress} />
          <HashDetail
            label="Hash"
            value={tx.hash}
            href={!tx.inboundHash || tx.inboundHash === tx.hash ? links.inbound : undefined}
          />
          <HashDetail label="Inbound hash" value={tx.inboundHash} href={tx.inboundHash ? links.inbound : undefined} />
          {tx.refund ? (
            <HashDetail
              label="Refund transaction"
              value={tx.refund.hash}
              href={tx.refund.hash ? links.outbound : undefined}
            />
          ) : (
            <HashDetail label="Outbound hash" value={tx.outboundHash} href={links.outbound} />
          )}
          <Detail label="Created">
            <span className={text.value}>
              <LocalTime value={tx.createdAt} withDate />
            </span>
          </Detail>
          <Detail label="Updated">
            <span className={text.value}>
              <LocalTime value={tx.updatedAt} withDate />
            </span>
          </Detail>
        </DetailList>
      </Panel>
    </div>
  );
}

/**
 * Follows the status stream until it is final, from the state the server rendered (`initial`: null
 * when no such swap exists, undefined when the server could not read it); a retry remounts the view
 * and starts over.
 */
export function TransactionTracker({
  transactionId,
  initial,
}: {
  transactionId: string;
  initial: TrackerInitial | null | undefined;
}) {
  const [attempt, setAttempt] = useState(0);
  return (
    <TrackerView
      key={attempt}
      transactionId={transactionId}
      initial={attempt === 0 ? initial : undefined}
      onRetry={() => setAttempt((n) => n + 1)}
    />
  );
}

const stateOf = (initial: TrackerInitial | null | undefined): TrackerState | undefined =>
  initial === null
    ? { kind: 'not-found' }
    : initial && {
        kind: 'ready',
        tx: initial.status.transaction,
        final: initial.status.final,
        expectedBy: initial.status.expectedBy ?? null,
        receivedAt: initial.readAt,
        connection: 'opening',
      };

function TrackerView({
  transactionId,
  initial,
  onRetry,
}: {
  transactionId: string;
  initial: TrackerInitial | null | undefined;
  onRetry: () => void;
}) {
  const state = useStatusStream(transactionId, stateOf(initial));

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
      {state.kind === 'ready' && <Ready {...state} initial={initial ?? undefined} />}
    </>
  );
}
