import { formatAmount } from '../../catalog/amounts';
import type { StatusResult, Substatus } from '../types';
import { chainflipDecimals } from './assets';
import { feeItems, recordedFee } from './fees';
import type { SwapStatusBody } from './wire';

type InFlight = 'WAITING' | 'RECEIVING' | 'SWAPPING' | 'SENDING' | 'SENT';

const IN_FLIGHT: Record<InFlight, { detail: string; substatus: Substatus }> = {
  WAITING: { detail: 'Waiting for the deposit to the channel', substatus: 'WAITING_SOURCE_CONFIRMATIONS' },
  RECEIVING: { detail: 'Deposit seen; waiting for confirmations', substatus: 'WAITING_SOURCE_CONFIRMATIONS' },
  SWAPPING: { detail: 'Deposit confirmed; swapping on Chainflip', substatus: 'SWAPPING' },
  SENDING: { detail: 'Swap done; payout scheduled', substatus: 'WAITING_DESTINATION' },
  SENT: { detail: 'Payout broadcast; waiting for it to confirm', substatus: 'WAITING_DESTINATION' },
};

/** "1.5 ETH" from base units, for the timeline note of a partial fill. */
function describeAmount(amount: string | undefined, asset: string | undefined, chain: string | undefined): string {
  const decimals = asset && chain ? chainflipDecimals({ asset, chain }) : undefined;
  if (amount === undefined || decimals === undefined) return `${amount ?? 'an unknown amount'} ${asset ?? ''}`.trim();
  return `${formatAmount(BigInt(amount), decimals)} ${asset}`;
}

const isRefunded = (body: SwapStatusBody) =>
  body.fees.some((fee) => fee.type === 'REFUND') && body.swap?.swappedOutputAmount === '0';

function failureReason(body: SwapStatusBody): string | undefined {
  const failure = body.swapEgress?.failure ?? body.refundEgress?.failure ?? body.deposit?.failure;
  return failure?.reason?.message ?? failure?.reason?.name;
}

/** Maps a `GET /v2/swaps/{id}` body onto our status, per the swap states Chainflip documents. */
export function mapSwapStatus(body: SwapStatusBody): StatusResult {
  const common = {
    upstreamState: body.state,
    inboundHash: body.deposit?.txRef,
    fee: recordedFee(feeItems(body.fees)),
  };
  const refund = (detail: string): StatusResult => ({
    ...common,
    status: 'REFUND',
    detail,
    substatus: 'REFUNDED',
    outboundHash: body.refundEgress?.txRef,
  });

  switch (body.state) {
    case 'WAITING':
      if (body.depositChannel?.isExpired) {
        return {
          ...common,
          status: 'FAILED',
          detail: 'The deposit channel expired without a deposit',
          substatus: 'EXPIRED',
        };
      }
      return { ...common, status: 'PENDING', ...IN_FLIGHT.WAITING };
    case 'RECEIVING':
    case 'SWAPPING':
    case 'SENDING':
    case 'SENT':
      return { ...common, status: 'PENDING', ...IN_FLIGHT[body.state] };
    case 'COMPLETED': {
      const egress = body.swapEgress;
      if (egress) {
        const dstAmountBase = egress.amount === undefined ? undefined : BigInt(egress.amount);
        const outcome = { ...common, status: 'SUCCESS' as const, outboundHash: egress.txRef, dstAmountBase };
        if (!body.refundEgress) return { ...outcome, detail: 'Swap completed', substatus: 'COMPLETED' };
        const partial = {
          delivered: describeAmount(egress.amount, body.destAsset, body.destChain),
          refunded: describeAmount(body.refundEgress.amount, body.srcAsset, body.srcChain),
        };
        return {
          ...outcome,
          detail: 'Swap completed; the unswapped part was refunded',
          substatus: 'PARTIAL',
          partial,
        };
      }
      if (body.refundEgress || isRefunded(body)) return refund('The swap could not fill; the deposit was refunded');
      const output = body.swap?.swappedOutputAmount;
      return {
        ...common,
        status: 'SUCCESS',
        detail: 'Swap completed',
        substatus: 'COMPLETED',
        dstAmountBase: output === undefined ? undefined : BigInt(output),
      };
    }
    case 'FAILED':
      if (body.refundEgress?.witnessedAt !== undefined) return refund('The swap failed; the deposit was refunded');
      return { ...common, status: 'FAILED', detail: failureReason(body) ?? 'The swap failed' };
  }
}
