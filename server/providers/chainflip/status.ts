import { formatAmount } from '../../catalog/amounts';
import type { StatusResult, Substatus } from '../types';
import { chainflipDecimals } from './assets';
import { recordedFee, settledFeeItems } from './fees';
import type { SwapStatusBody, WireFee } from './wire';

type InFlight = 'WAITING' | 'RECEIVING' | 'SWAPPING' | 'SENDING' | 'SENT';
type Egress = NonNullable<SwapStatusBody['refundEgress']>;

/** The backend's `FailureMode.DepositRejected`: the deposit failed and a refund broadcast was requested for it. */
const DEPOSIT_REJECTED = 'DEPOSIT_REJECTED';

const IN_FLIGHT: Record<InFlight, { detail: string; substatus: Substatus }> = {
  WAITING: { detail: 'Waiting for the deposit to the channel', substatus: 'WAITING_SOURCE_CONFIRMATIONS' },
  RECEIVING: { detail: 'Deposit seen; waiting for confirmations', substatus: 'WAITING_SOURCE_CONFIRMATIONS' },
  SWAPPING: { detail: 'Deposit confirmed; swapping on Chainflip', substatus: 'SWAPPING' },
  SENDING: { detail: 'Swap done; payout scheduled', substatus: 'WAITING_DESTINATION' },
  SENT: { detail: 'Payout broadcast; waiting for it to confirm', substatus: 'WAITING_DESTINATION' },
};

const REFUND_IN_FLIGHT: Record<'SENDING' | 'SENT', string> = {
  SENDING: 'The swap could not fill; the refund is scheduled',
  SENT: 'The swap could not fill; refund broadcast, waiting for it to confirm',
};

const PARTIAL_IN_FLIGHT: Record<'SENDING' | 'SENT', string> = {
  SENDING: 'Part swapped; the payout and the refund of the rest are scheduled',
  SENT: 'Part swapped; the payout and the refund of the rest are broadcast',
};

/** "1.5 ETH" from base units, for the timeline note of a partial fill. */
function describeAmount(amount: string | undefined, asset: string | undefined, chain: string | undefined): string {
  const decimals = asset && chain ? chainflipDecimals({ asset, chain }) : undefined;
  if (amount === undefined || decimals === undefined) return `${amount ?? 'an unknown amount'} ${asset ?? ''}`.trim();
  return `${formatAmount(BigInt(amount), decimals)} ${asset}`;
}

const isRefunded = (body: SwapStatusBody) =>
  body.fees.some((fee) => fee.type === 'REFUND') && body.swap?.swappedOutputAmount === '0';

const reasonOf = (failure: Egress['failure']) => failure?.reason?.message ?? failure?.reason?.name;

function failureReason(body: SwapStatusBody): string | undefined {
  return reasonOf(body.swapEgress?.failure ?? body.refundEgress?.failure ?? body.deposit?.failure);
}

/** A refund still on its way: scheduled or broadcast, neither witnessed nor failed. */
const refundInFlight = (egress: Egress | undefined): boolean =>
  egress !== undefined && egress.witnessedAt === undefined && egress.failure === undefined;

const withRef = (text: string, txRef: string | undefined) => (txRef ? `${text} (${txRef})` : text);

/** Nothing was or will be swapped: the deposit goes back (or never came), so no quoted swap fee applies. */
const noSwap = (body: SwapStatusBody) =>
  !body.swapEgress &&
  (body.refundEgress !== undefined ||
    isRefunded(body) ||
    body.deposit?.failure !== undefined ||
    body.depositChannel?.isExpired === true);

/** What share of the input a settled partial fill swapped (the rest went back); undefined for a whole swap. */
function partShare(body: SwapStatusBody): { swapped: bigint; of: bigint } | undefined {
  const { swappedInputAmount, originalInputAmount } = body.swap ?? {};
  if (!body.refundEgress || !body.swapEgress || !swappedInputAmount || !originalInputAmount) return undefined;
  return { swapped: BigInt(swappedInputAmount), of: BigInt(originalInputAmount) };
}

/** The refund of the whole deposit: what goes back and its transaction, as far as reported. */
const wholeRefund = (egress: Egress | undefined): StatusResult['refund'] => ({
  ...(egress?.amount === undefined ? {} : { amountBase: BigInt(egress.amount) }),
  ...(egress?.txRef ? { hash: egress.txRef } : {}),
});

/**
 * Maps a `GET /v2/swaps/{id}` body onto our status, per the backend's `getSwapState`. FAILED only where
 * Chainflip reports a failure no refund follows: a rejected deposit is FAILED upstream while its refund
 * is in flight, and that is a refund in progress here. `quotedFees`: the locked quote's fee lines, which
 * stand for those the body does not (yet) state.
 */
export function mapSwapStatus(body: SwapStatusBody, quotedFees?: WireFee[]): StatusResult {
  const settled = body.state === 'COMPLETED' || body.state === 'FAILED';
  const common = {
    upstreamState: body.state,
    inboundHash: body.deposit?.txRef,
    fee: recordedFee(settledFeeItems(body.fees, noSwap(body) ? undefined : quotedFees, settled, partShare(body))),
  };
  const refund = (detail: string): StatusResult => ({
    ...common,
    status: 'REFUND',
    detail,
    substatus: 'REFUNDED',
    outboundHash: body.refundEgress?.txRef,
    refund: wholeRefund(body.refundEgress),
  });
  const refunding = (detail: string): StatusResult => ({
    ...common,
    status: 'PENDING',
    detail,
    substatus: 'REFUND_IN_PROGRESS',
    outboundHash: body.refundEgress?.txRef,
    refund: wholeRefund(body.refundEgress),
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
      return { ...common, status: 'PENDING', ...IN_FLIGHT[body.state] };
    case 'SENDING':
    case 'SENT':
      if (body.refundEgress && !body.swapEgress) return refunding(REFUND_IN_FLIGHT[body.state]);
      if (body.refundEgress) {
        return {
          ...common,
          status: 'PENDING',
          detail: PARTIAL_IN_FLIGHT[body.state],
          substatus: 'WAITING_DESTINATION',
          outboundHash: body.swapEgress?.txRef,
        };
      }
      return { ...common, status: 'PENDING', ...IN_FLIGHT[body.state], outboundHash: body.swapEgress?.txRef };
    case 'COMPLETED': {
      const egress = body.swapEgress;
      if (egress) {
        const dstAmountBase = egress.amount === undefined ? undefined : BigInt(egress.amount);
        const outcome = { ...common, status: 'SUCCESS' as const, outboundHash: egress.txRef, dstAmountBase };
        const refundEgress = body.refundEgress;
        if (!refundEgress) return { ...outcome, detail: 'Swap completed', substatus: 'COMPLETED' };
        // COMPLETED follows the payout alone: the refund of the unswapped part may still be on its way.
        if (refundInFlight(refundEgress)) {
          return {
            ...common,
            status: 'PENDING',
            detail: withRef('Payout delivered; the refund of the unswapped part is on its way', refundEgress.txRef),
            substatus: 'REFUND_IN_PROGRESS',
            outboundHash: egress.txRef,
          };
        }
        const refundFailure = reasonOf(refundEgress.failure);
        const partial = {
          delivered: describeAmount(egress.amount, body.destAsset, body.destChain),
          refunded: refundFailure ? 'nothing' : describeAmount(refundEgress.amount, body.srcAsset, body.srcChain),
          ...(refundEgress.txRef ? { refundHash: refundEgress.txRef } : {}),
        };
        return {
          ...outcome,
          detail: refundFailure
            ? `Swap completed; the refund of the unswapped part failed: ${refundFailure}`
            : withRef('Swap completed; the unswapped part was refunded', refundEgress.txRef),
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
    case 'FAILED': {
      const reason = failureReason(body);
      const refundEgress = body.refundEgress;
      const payout = body.swapEgress;
      // The payout arrived and only the unswapped remainder could not go back (dust): the swapper was paid.
      if (refundEgress?.failure && payout?.witnessedAt !== undefined) {
        return {
          ...common,
          status: 'SUCCESS',
          detail: `Swap completed; the unswapped remainder could not be refunded: ${reason ?? 'the refund failed'}`,
          substatus: 'PARTIAL',
          outboundHash: payout.txRef,
          dstAmountBase: payout.amount === undefined ? undefined : BigInt(payout.amount),
          partial: { delivered: describeAmount(payout.amount, body.destAsset, body.destChain), refunded: 'nothing' },
        };
      }
      // getSwapState answers FAILED once any egress is ignored, before the payout's broadcast succeeds
      // (chainflip-sdk-monorepo packages/swap/src/routes/v2/utils.ts; its test "…refund egress fails but
      // swap completes" in routes/v2/__tests__/swap.test.ts): a payout still on its way is not a failure.
      if (refundEgress?.failure && payout && payout.failure === undefined) {
        return {
          ...common,
          status: 'PENDING',
          detail: withRef(
            `Payout on its way; the refund of the unswapped part was ignored: ${reasonOf(refundEgress.failure) ?? 'the refund failed'}`,
            payout.txRef,
          ),
          substatus: 'WAITING_DESTINATION',
          outboundHash: payout.txRef,
        };
      }
      const said = reason ? { reason } : {};
      if (refundEgress?.failure) return { ...common, ...said, status: 'FAILED', detail: reason ?? 'The refund failed' };
      const rejected = body.deposit?.failure?.mode === DEPOSIT_REJECTED;
      const cause = reason ?? (rejected ? 'The deposit was rejected' : 'The swap failed');
      const why = { reason: cause };
      if (refundEgress?.witnessedAt !== undefined) return { ...refund(`${cause}; the deposit was refunded`), ...why };
      if (refundInFlight(refundEgress) || rejected) {
        return { ...refunding(withRef(`${cause}; its refund is on its way`, refundEgress?.txRef)), ...why };
      }
      return { ...common, ...said, status: 'FAILED', detail: reason ?? 'The swap failed' };
    }
  }
}
