import type { StatusResult } from '../types';
import { feeItems, recordedFee } from './fees';
import type { SwapStatusBody } from './wire';

const IN_FLIGHT: Record<'WAITING' | 'RECEIVING' | 'SWAPPING' | 'SENDING' | 'SENT', string> = {
  WAITING: 'Waiting for the deposit to the channel',
  RECEIVING: 'Deposit seen; waiting for confirmations',
  SWAPPING: 'Deposit confirmed; swapping on Chainflip',
  SENDING: 'Swap done; payout scheduled',
  SENT: 'Payout broadcast; waiting for it to confirm',
};

const isRefunded = (body: SwapStatusBody) =>
  body.fees.some((fee) => fee.type === 'REFUND') && body.swap?.swappedOutputAmount === '0';

function failureReason(body: SwapStatusBody): string | undefined {
  const failure = body.swapEgress?.failure ?? body.refundEgress?.failure ?? body.deposit?.failure;
  return failure?.reason?.message ?? failure?.reason?.name;
}

/** Maps a `GET /v2/swaps/{id}` body onto our status (providers.md §2.4). */
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
    outboundHash: body.refundEgress?.txRef,
  });

  switch (body.state) {
    case 'WAITING':
      if (body.depositChannel?.isExpired) {
        return { ...common, status: 'FAILED', detail: 'The deposit channel expired without a deposit' };
      }
      return { ...common, status: 'PENDING', detail: IN_FLIGHT.WAITING };
    case 'RECEIVING':
    case 'SWAPPING':
    case 'SENDING':
    case 'SENT':
      return { ...common, status: 'PENDING', detail: IN_FLIGHT[body.state] };
    case 'COMPLETED': {
      const egress = body.swapEgress;
      if (egress) {
        return {
          ...common,
          status: 'SUCCESS',
          detail: body.refundEgress ? 'Swap completed; the unswapped part was refunded' : 'Swap completed',
          outboundHash: egress.txRef,
          dstAmountBase: egress.amount === undefined ? undefined : BigInt(egress.amount),
        };
      }
      if (body.refundEgress || isRefunded(body)) return refund('The swap could not fill; the deposit was refunded');
      const output = body.swap?.swappedOutputAmount;
      return {
        ...common,
        status: 'SUCCESS',
        detail: 'Swap completed',
        dstAmountBase: output === undefined ? undefined : BigInt(output),
      };
    }
    case 'FAILED':
      if (body.refundEgress?.witnessedAt !== undefined) return refund('The swap failed; the deposit was refunded');
      return { ...common, status: 'FAILED', detail: failureReason(body) ?? 'The swap failed' };
  }
}
