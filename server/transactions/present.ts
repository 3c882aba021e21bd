import { parseUnits } from 'viem';
import type { transactions } from '../../drizzle/schema';
import type { AssetSnapshot } from '../../drizzle/schema/swaps';
import { formatAmount } from '../catalog/amounts';
import type { CatalogSnapshot } from '../catalog/snapshot';
import { reasonOf, type Substatus } from '../providers/types';
import type { RecordedFeeDetails } from '../schemas/responses';
import { explorerUrlsOf } from './explorer';
import { presentSettlement } from './settlement';
import type { StatusFields } from './status-fields';

type TransactionRow = typeof transactions.$inferSelect;

const publicAsset = ({ id, symbol, contract, image, chain }: AssetSnapshot) => ({ id, symbol, contract, image, chain });

const num = (value: string | null) => (value === null ? null : Number(value));

/** A numeric(38, 8) column as its shortest decimal string: `1.50000000` reads `1.5`. */
const decimalText = (value: string) => formatAmount(parseUnits(value, 8), 8);

/**
 * The recorded fee fields, as status and history report them: the provider's recorded
 * fee in its own currency once a poll has seen it, until then the fee quoted at execute in USD.
 */
export function recordedFee(tx: StatusFields) {
  const recorded = tx.feeAmount !== null;
  const amount = recorded ? tx.feeAmount : tx.quotedFeeUsd && decimalText(tx.quotedFeeUsd);
  const currency = recorded ? tx.feeCurrency : tx.quotedFeeUsd !== null ? 'USD' : null;
  return {
    usd: num(tx.quotedFeeUsd) ?? num(tx.feeAmountUsd),
    formatted: amount !== null ? `${amount} ${currency ?? ''}`.trim() : null,
    amount,
    amountUsd: num(tx.feeUsd),
    currency,
    // Written only from fee line items at execute and from providers' status fees.
    details: (tx.feeDetails ?? null) as RecordedFeeDetails,
  };
}

/** A transaction as the status endpoint answers it, with `substatus` and `explorerUrls`; the catalog holds the explorers. */
export function presentTransaction(tx: StatusFields, catalog: CatalogSnapshot) {
  return {
    id: tx.id,
    hash: tx.hash,
    inboundHash: tx.inboundHash,
    outboundHash: tx.outboundHash ?? '',
    provider: tx.provider,
    status: tx.status,
    substatus: tx.substatus as Substatus | null,
    reason: reasonOf(tx.trackingContext),
    srcAmount: tx.srcAmount,
    dstAmount: tx.dstAmount,
    ...presentSettlement(tx),
    walletAddress: tx.walletAddress,
    recipientWalletAddress: tx.recipientWalletAddress,
    createdAt: tx.createdAt.toISOString(),
    updatedAt: tx.updatedAt.toISOString(),
    fee: recordedFee(tx),
    srcAsset: publicAsset(tx.srcAsset),
    dstAsset: publicAsset(tx.dstAsset),
    explorerUrls: explorerUrlsOf(catalog, tx),
  };
}

/** A transaction as a history page lists it: no updatedAt, plus amountUsd. */
export function presentHistoryItem(tx: StatusFields & Pick<TransactionRow, 'amountUsd'>, catalog: CatalogSnapshot) {
  const { updatedAt: _updatedAt, ...rest } = presentTransaction(tx, catalog);
  return { ...rest, amountUsd: num(tx.amountUsd) ?? 0 };
}

export type PublicTransaction = ReturnType<typeof presentTransaction>;
