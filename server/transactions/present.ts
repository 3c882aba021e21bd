import type { transactions } from '../../drizzle/schema';
import type { AssetSnapshot } from '../../drizzle/schema/swaps';
import type { RecordedFeeDetails } from '../schemas/responses';

type TransactionRow = typeof transactions.$inferSelect;

const publicAsset = ({ id, symbol, contract, image, chain }: AssetSnapshot) => ({ id, symbol, contract, image, chain });

const num = (value: string | null) => (value === null ? null : Number(value));

/** The recorded fee fields of spec §2, as status and history report them. */
export function recordedFee(tx: TransactionRow) {
  const amountUsd = num(tx.feeAmountUsd);
  return {
    usd: amountUsd,
    formatted: tx.feeAmount !== null ? `${tx.feeAmount} ${tx.feeCurrency ?? ''}`.trim() : null,
    amount: tx.feeAmount,
    amountUsd,
    currency: tx.feeCurrency,
    // Written only from fee line items at execute and from providers' status fees.
    details: (tx.feeDetails ?? null) as RecordedFeeDetails,
  };
}

/** Spec §2 "Transaction (status response)". */
export function presentTransaction(tx: TransactionRow) {
  return {
    id: tx.id,
    hash: tx.hash,
    inboundHash: tx.inboundHash,
    outboundHash: tx.outboundHash,
    provider: tx.provider,
    status: tx.status,
    srcAmount: tx.srcAmount,
    dstAmount: tx.dstAmount,
    walletAddress: tx.walletAddress,
    recipientWalletAddress: tx.recipientWalletAddress,
    createdAt: tx.createdAt.toISOString(),
    updatedAt: tx.updatedAt.toISOString(),
    fee: recordedFee(tx),
    srcAsset: publicAsset(tx.srcAsset),
    dstAsset: publicAsset(tx.dstAsset),
  };
}

/** Spec §2 "Transaction (history item)": no updatedAt, plus amountUsd. */
export function presentHistoryItem(tx: TransactionRow) {
  const { updatedAt: _updatedAt, ...rest } = presentTransaction(tx);
  return { ...rest, amountUsd: num(tx.amountUsd) ?? 0 };
}

export type PublicTransaction = ReturnType<typeof presentTransaction>;
