import type { Outcome } from '../simulator-kit';
import { NO_ROUTE_EGRESS_FEE } from './sim-market';
import type { SwapState } from './wire';

/**
 * The kit's endings, plus a deposit the backend rejects (and refunds), a swap that fills only in part,
 * and a partial fill whose refund egress is ignored before the payout's broadcast succeeds.
 */
export type ChainflipOutcome = Outcome | 'rejected' | 'partial' | 'partial-refund-ignored-first';
export const CHAINFLIP_OUTCOMES = [
  'success',
  'failure',
  'refund',
  'rejected',
  'partial',
  'partial-refund-ignored-first',
] as const satisfies ChainflipOutcome[];
/** Every name `POST /__sim/scripts` takes beyond the kit's: the swap endings above and the quote refusal. */
export const CHAINFLIP_SCRIPT_NAMES = [
  'rejected',
  'partial',
  'partial-refund-ignored-first',
  NO_ROUTE_EGRESS_FEE,
] as const satisfies readonly (ChainflipOutcome | typeof NO_ROUTE_EGRESS_FEE)[];

/** A partial fill's plans: half swapped and paid out, the rest refunded (or, ignored, kept). */
export const isPartialFill = (outcome: ChainflipOutcome) =>
  outcome === 'partial' || outcome === 'partial-refund-ignored-first';

export type EgressStage = 'scheduled' | 'sent' | 'witnessed' | 'aborted' | 'ignored';

/** What the backend shows at one point of a swap after its deposit was seen. */
export interface Step {
  state: SwapState;
  swapEgress?: EgressStage;
  refundEgress?: EgressStage;
}

/** One egress, the payout or the whole refund, walked from scheduled to witnessed after the swap. */
function egressWalk(egress: 'swapEgress' | 'refundEgress'): readonly Step[] {
  const at = (state: SwapState, stage: EgressStage): Step => ({ state, [egress]: stage });
  return [
    { state: 'RECEIVING' },
    { state: 'SWAPPING' },
    at('SENDING', 'scheduled'),
    at('SENT', 'sent'),
    at('COMPLETED', 'witnessed'),
  ];
}

export const PLANS: Record<ChainflipOutcome, readonly Step[]> = {
  success: egressWalk('swapEgress'),
  refund: egressWalk('refundEgress'),
  failure: [
    { state: 'RECEIVING' },
    { state: 'SWAPPING' },
    { state: 'SENDING', swapEgress: 'scheduled' },
    { state: 'FAILED', swapEgress: 'aborted' },
  ],
  // getSwapState answers FAILED for a failed deposit from the start, while its refund broadcast goes on.
  rejected: [
    { state: 'RECEIVING' },
    { state: 'FAILED', refundEgress: 'scheduled' },
    { state: 'FAILED', refundEgress: 'sent' },
    { state: 'FAILED', refundEgress: 'witnessed' },
  ],
  // COMPLETED follows the payout's broadcast alone, so the refund may still be in flight then.
  partial: [
    { state: 'RECEIVING' },
    { state: 'SWAPPING' },
    { state: 'SENDING', swapEgress: 'scheduled', refundEgress: 'scheduled' },
    { state: 'SENT', swapEgress: 'sent', refundEgress: 'sent' },
    { state: 'COMPLETED', swapEgress: 'witnessed', refundEgress: 'sent' },
    { state: 'COMPLETED', swapEgress: 'witnessed', refundEgress: 'witnessed' },
  ],
  // getSwapState (packages/swap/src/routes/v2/utils.ts) answers FAILED once any egress is ignored, and the
  // backend's own test ("…FAILED status if refund egress fails but swap completes", routes/v2/__tests__/
  // swap.test.ts) has RefundEgressIgnored before the payout's BroadcastSuccess: FAILED while the payout flies.
  'partial-refund-ignored-first': [
    { state: 'RECEIVING' },
    { state: 'SWAPPING' },
    { state: 'SENDING', swapEgress: 'scheduled', refundEgress: 'scheduled' },
    { state: 'FAILED', swapEgress: 'scheduled', refundEgress: 'ignored' },
    { state: 'FAILED', swapEgress: 'scheduled', refundEgress: 'ignored' },
    { state: 'FAILED', swapEgress: 'witnessed', refundEgress: 'ignored' },
  ],
};
