import { fakeHex, type Outcome } from '../simulator-kit';
import { CHAINS, type PoolAsset, type SimChain } from './sim-market';

/** A streaming swap whose later sub-swaps missed the limit: what it swapped goes out, the rest is refunded. */
export type SwapOutcome = Outcome | 'partial';

export interface SimDeposit {
  hash: string;
  outcome?: SwapOutcome;
  fromAsset?: string;
  toAsset?: string;
  /** Inbound amount in 1e8 units. */
  amount?: string;
  destination?: string;
  refundAddress?: string;
  /** Who sent it and where; by default the latest quote's vault and the memo's refund address. */
  fromAddress?: string;
  toAddress?: string;
  memo?: string;
  /** A hash the network never saw (a typo, or someone else's junk): the node knows nothing of it. */
  unobserved?: boolean;
}

/** One inbound the fake network observed, reported as THORNode would: sender, vault, memo and coins as sent. */
export interface SimSwap {
  hash: string;
  outcome: SwapOutcome;
  polls: number;
  from: PoolAsset;
  to: PoolAsset;
  amount: bigint;
  expectedOut: bigint;
  destination: string;
  refundAddress: string;
  sender: string;
  vault: string;
  memo: string;
  unobserved?: boolean;
}

export type Stage =
  | 'observed'
  | 'confirmed'
  | 'swapping'
  | 'finalised'
  | 'delay_done'
  | 'signed'
  | 'native_done'
  | 'refund_scheduled'
  | 'refund_delay_done'
  | 'refunded'
  | 'failed';

export function stagesFor(swap: SimSwap): Stage[] {
  const inbound: Stage[] = ['observed', 'confirmed', 'swapping'];
  if (swap.outcome === 'failure') return [...inbound, 'failed'];
  if (swap.outcome === 'refund') return [...inbound, 'refund_scheduled', 'refund_delay_done', 'refunded'];
  if (swap.to.chain === 'THOR' && swap.outcome === 'success') return [...inbound, 'native_done'];
  return [...inbound, 'finalised', 'delay_done', 'signed'];
}

export const simTxId = (hash: string) => hash.trim().replace(/^0x/i, '').toUpperCase();
const outTxId = (kind: string, hash: string) => fakeHex(`thorchain-sim:${kind}:${hash}`).toUpperCase();

/**
 * The stages as the node writes them (querier.go `newTxStagesResponse`; unset proto fields are left out).
 * Before the inbound is final `checkPending` returns early: `swap_status` says not pending and
 * `swap_finalised` is absent, though nothing has been swapped yet.
 */
function stagesBody(swap: SimSwap, stage: Stage) {
  const fromChain = CHAINS[swap.from.chain] as SimChain;
  const index = stagesFor(swap).indexOf(stage);
  const countsConfirmations = fromChain.confirmations > 0;
  const final = index >= 1 || !countsConfirmations;
  const finalised = index >= 2;
  const swapDone = index >= 3;
  const outboundScheduled = [
    'finalised',
    'delay_done',
    'signed',
    'refund_scheduled',
    'refund_delay_done',
    'refunded',
  ].includes(stage);
  const delayDone = ['delay_done', 'signed', 'refund_delay_done', 'refunded'].includes(stage);
  const signed = stage === 'signed' || stage === 'refunded';
  return {
    inbound_observed: {
      pre_confirmation_count: countsConfirmations ? 1 : undefined,
      final_count: final ? 1 : 0,
      completed: true,
    },
    inbound_confirmation_counted: countsConfirmations
      ? final
        ? { remaining_confirmation_seconds: 0, completed: true }
        : {
            counting_start_height: 19_500_000,
            chain: swap.from.chain,
            external_observed_height: 850_000,
            external_confirmation_delay_height: 850_000 + fromChain.confirmations,
            remaining_confirmation_seconds: fromChain.confirmations * fromChain.blockSeconds,
            completed: false,
          }
      : undefined,
    inbound_finalised: { completed: finalised },
    swap_status:
      finalised && !swapDone
        ? { pending: true, streaming: { interval: 1, quantity: 4, count: 2 } }
        : { pending: false },
    swap_finalised: final ? { completed: swapDone } : undefined,
    outbound_delay: outboundScheduled
      ? delayDone
        ? { completed: true }
        : { remaining_delay_blocks: 5, remaining_delay_seconds: 30, completed: false }
      : undefined,
    outbound_signed: outboundScheduled
      ? signed
        ? { completed: true }
        : {
            scheduled_outbound_height: 19_500_010,
            blocks_since_scheduled: delayDone ? 0 : undefined,
            completed: false,
          }
      : undefined,
  };
}

function outTx(swap: SimSwap, kind: 'OUT' | 'REFUND', asset: PoolAsset, amount: bigint, to: string) {
  const chain = CHAINS[asset.chain] as SimChain;
  const native = asset.chain === 'THOR';
  return {
    id: native ? '0'.repeat(64) : outTxId(kind, swap.hash),
    chain: asset.chain,
    from_address: chain.vault ?? 'thor1g98cy3n9mmjrpn0sxmn63lztelera37n8n67c0',
    to_address: to,
    coins: [{ asset: asset.notation, amount: amount.toString() }],
    gas: native ? [] : [{ asset: chain.gasAsset, amount: '2500' }],
    memo: `${kind}:${swap.hash}`,
  };
}

/** A partial fill swaps half the deposit: half the output goes out, half the input comes back. */
function outbounds(swap: SimSwap) {
  const partial = swap.outcome === 'partial';
  const swappedOut = partial ? swap.expectedOut / 2n : swap.expectedOut;
  const refundAmount = ((partial ? swap.amount / 2n : swap.amount) * 9_950n) / 10_000n;
  const plannedOut = {
    chain: swap.to.chain,
    to_address: swap.destination,
    coin: { asset: swap.to.notation, amount: swappedOut.toString() },
    refund: false,
  };
  const plannedRefund = {
    chain: swap.from.chain,
    to_address: swap.refundAddress,
    coin: { asset: swap.from.notation, amount: refundAmount.toString() },
    refund: true,
  };
  const out = outTx(swap, 'OUT', swap.to, swappedOut, swap.destination);
  const refund = outTx(swap, 'REFUND', swap.from, refundAmount, swap.refundAddress);
  const swapPlan = partial ? [plannedOut, plannedRefund] : [plannedOut];
  const outsSent = partial ? [out, refund] : [out];
  return { plannedOut, plannedRefund, swapPlan, outsSent, refund };
}

/** What THORNode answers for a hash it has not observed: no tx, nothing started. */
export const UNOBSERVED_BODY = {
  stages: { inbound_observed: { final_count: 0, completed: false } },
};

/** `GET /thorchain/tx/status/{hash}` for a swap at a given stage. */
export function statusBody(swap: SimSwap, stage: Stage) {
  const fromChain = CHAINS[swap.from.chain] as SimChain;
  const { plannedOut, plannedRefund, swapPlan, outsSent, refund } = outbounds(swap);
  const outs: Partial<Record<Stage, { planned: unknown[]; out: unknown[] }>> = {
    finalised: { planned: swapPlan, out: [] },
    delay_done: { planned: swapPlan, out: [] },
    signed: { planned: swapPlan, out: outsSent },
    native_done: { planned: [plannedOut], out: outsSent },
    refund_scheduled: { planned: [plannedRefund], out: [] },
    refund_delay_done: { planned: [plannedRefund], out: [] },
    refunded: { planned: [plannedRefund], out: [refund] },
  };
  return {
    tx: {
      id: swap.hash,
      chain: swap.from.chain,
      from_address: swap.sender,
      to_address: swap.vault,
      coins: [{ asset: swap.from.notation, amount: swap.amount.toString() }],
      gas: [{ asset: fromChain.gasAsset, amount: '2500' }],
      memo: swap.memo,
    },
    planned_out_txs: outs[stage]?.planned,
    out_txs: outs[stage]?.out,
    stages: stagesBody(swap, stage),
  };
}

/** The swap as Midgard's `/v2/actions` lists it (see midgardActionsSchema): its inbound, sender and memo. */
export function midgardAction(swap: SimSwap) {
  return {
    type: 'swap',
    status: 'pending',
    pools: [swap.from.notation, swap.to.notation].filter((notation) => !notation.startsWith('THOR.')),
    in: [
      {
        address: swap.sender,
        coins: [{ asset: swap.from.notation, amount: swap.amount.toString() }],
        txID: swap.hash,
      },
    ],
    out: [],
    metadata: { swap: { memo: swap.memo } },
  };
}
