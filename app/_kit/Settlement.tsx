import type { ReactNode } from 'react';
import type { TransactionRefund } from '@/server/schemas/responses';
import { FeeSummary } from './FeeSummary';
import { formatAmount, formatUsd } from './format';
import text from './text.module.css';

/** What a swap's views read about how it settled. */
export interface Settled {
  dstAmount: string;
  quotedDstAmount: string | null;
  refund: TransactionRefund | null;
  srcAsset: { symbol?: string | null; chain?: string | null };
  dstAsset: { symbol?: string | null; chain?: string | null };
}

/** The amount returned, with the source asset's symbol; what is said while the provider has not reported it. */
export const refundAmount = (tx: Settled) =>
  tx.refund?.amount ? formatAmount(tx.refund.amount, tx.srcAsset.symbol) : 'Amount not reported yet';

/**
 * The receiving side of a swap summary: the refund where the deposit goes back (the amount, to the
 * source wallet), else what is received, with the quote it replaced when the provider settled on another.
 */
export function receivedSide(
  tx: Settled,
  chainName: (key: string) => string,
  labels: [send: string, receive: string],
  refundLabels: [send: string, receive: string],
): { labels: [string, string]; receive: { amount: string; extra: ReactNode } } {
  if (tx.refund) {
    return {
      labels: refundLabels,
      receive: { amount: refundAmount(tx), extra: `to the source wallet on ${chainName(tx.refund.chain)}` },
    };
  }
  const received = formatAmount(tx.dstAmount, tx.dstAsset.symbol);
  const quoted = tx.quotedDstAmount === null ? null : formatAmount(tx.quotedDstAmount, tx.dstAsset.symbol);
  const on = `on ${chainName(tx.dstAsset.chain ?? '')}`;
  return {
    labels,
    receive: {
      amount: received,
      extra:
        quoted && quoted !== received ? (
          <>
            {on} · <span data-testid="received-quoted">received · quoted {quoted}</span>
          </>
        ) : (
          on
        ),
    },
  };
}

/** Where the refund went: the amount and the wallet (its transaction is listed with the hashes). */
export function RefundText({ tx }: { tx: Settled & { refund: TransactionRefund } }) {
  const { refund } = tx;
  return (
    <span data-testid="refund-detail">
      {refund.amount ? `${refundAmount(tx)} returned` : 'The deposit is being returned'} to the source wallet,{' '}
      <span className={`${text.mono} ${text.value}`}>{refund.to}</span>
    </span>
  );
}

/**
 * A swap's fee: quoted against actual (FeeSummary); for a refund, what the provider reported the refund
 * cost, else that the quoted swap fee was not charged.
 */
export function SettledFee({
  tx,
  usd,
  quotedUsd,
  details,
}: {
  tx: Settled;
  usd: number | string | null | undefined;
  quotedUsd: number | null | undefined;
  details: unknown;
}) {
  if (!tx.refund) return <FeeSummary usd={usd} quotedUsd={quotedUsd} details={details} />;
  if (tx.refund.feeReported) return <FeeSummary usd={usd} details={details} />;
  return (
    <span data-testid="refund-fee">
      No swap fee: the swap did not take place
      {quotedUsd != null ? <span className={text.muted}> (quoted {formatUsd(quotedUsd)})</span> : null}.
      {tx.refund.kept && tx.refund.kept !== '0'
        ? ` Sending the deposit back cost ${formatAmount(tx.refund.kept, tx.srcAsset.symbol)}.`
        : null}
    </span>
  );
}
