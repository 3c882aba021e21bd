import { parseUnits } from 'viem';
import type { AssetSnapshot } from '../../drizzle/schema/swaps';
import { formatAmount } from '../catalog/amounts';
import type { StatusResult } from '../providers/types';

/**
 * The tracking context's record of what settling changed beside the row's columns: the received amount
 * the swapper was shown before the provider's own replaced it, and a refund of the whole deposit.
 */
export const SETTLEMENT_KEY = 'settlement';

interface Settlement {
  quotedDstAmount?: string;
  refund?: { amount?: string; hash?: string };
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

export function settlementOf(trackingContext: Record<string, unknown>): Settlement {
  const raw = trackingContext[SETTLEMENT_KEY];
  if (!raw || typeof raw !== 'object') return {};
  const { quotedDstAmount, refund } = raw as Record<string, unknown>;
  const refundRecord = refund && typeof refund === 'object' ? (refund as Record<string, unknown>) : undefined;
  return {
    ...(text(quotedDstAmount) ? { quotedDstAmount: text(quotedDstAmount) } : {}),
    ...(refundRecord
      ? {
          refund: {
            ...(text(refundRecord.amount) ? { amount: text(refundRecord.amount) } : {}),
            ...(text(refundRecord.hash) ? { hash: text(refundRecord.hash) } : {}),
          },
        }
      : {}),
  };
}

const decimalsOf = (asset: AssetSnapshot) => asset.decimals ?? 18;

/**
 * The settlement record after an answer, or undefined when the answer adds nothing to it: the amount
 * shown before is kept the first time the provider's received amount replaces it with another, and a
 * refund keeps the last amount and transaction reported for it.
 */
export function settle(
  tx: {
    trackingContext: Record<string, unknown>;
    dstAmount: string;
    dstAmountBase: string | null;
    srcAsset: AssetSnapshot;
  },
  result: Pick<StatusResult, 'status' | 'dstAmountBase' | 'refund'>,
): Settlement | undefined {
  const before = settlementOf(tx.trackingContext);
  const next: Settlement = { ...before };
  const received = result.status === 'PENDING' ? undefined : result.dstAmountBase;
  if (received !== undefined && received.toString() !== tx.dstAmountBase && before.quotedDstAmount === undefined) {
    next.quotedDstAmount = tx.dstAmount;
  }
  if (result.refund) {
    const { amountBase, hash } = result.refund;
    next.refund = {
      ...before.refund,
      ...(amountBase === undefined ? {} : { amount: formatAmount(amountBase, decimalsOf(tx.srcAsset)) }),
      ...(hash ? { hash } : {}),
    };
  }
  return JSON.stringify(next) === JSON.stringify(before) ? undefined : next;
}

/** The deposit less what came back, in the source asset: what the refund cost; null when not known or negative. */
function keptOf(srcAmount: string, returned: string, asset: AssetSnapshot): string | null {
  const decimals = decimalsOf(asset);
  try {
    const kept = parseUnits(srcAmount, decimals) - parseUnits(returned, decimals);
    return kept < 0n ? null : formatAmount(kept, decimals);
  } catch {
    return null;
  }
}

/**
 * What a swap's answers say about settling: the received amount quoted when the provider settled on
 * another, and the refund of the whole deposit (amount, to whom, its transaction) when it went back.
 */
export function presentSettlement(tx: {
  status: string;
  srcChain: string;
  trackingContext: Record<string, unknown>;
  srcAmount: string;
  srcAsset: AssetSnapshot;
  walletAddress: string;
  outboundHash: string | null;
  feeAmount: string | null;
}) {
  const { quotedDstAmount, refund } = settlementOf(tx.trackingContext);
  // A refund reported on its way that then failed (or a payout that went out after all) is no refund.
  const refunded = tx.status === 'REFUND' || (tx.status === 'PENDING' && refund !== undefined);
  const amount = refund?.amount ?? null;
  return {
    quotedDstAmount: refunded ? null : (quotedDstAmount ?? null),
    refund: refunded
      ? {
          amount,
          kept: amount === null ? null : keptOf(tx.srcAmount, amount, tx.srcAsset),
          to: tx.walletAddress,
          // Where the provider says it landed (LI.FI may refund on the destination chain), else the source chain.
          chain: text(tx.trackingContext.outboundChain) ?? tx.srcChain,
          hash: refund?.hash ?? (tx.status === 'REFUND' ? (tx.outboundHash ?? '') : ''),
          feeReported: tx.feeAmount !== null,
        }
      : null,
  };
}
