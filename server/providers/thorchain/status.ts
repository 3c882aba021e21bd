import { formatAmount, rescale } from '../../catalog/amounts';
import type { StatusResult, Substatus } from '../types';
import { chainOfNotation, hashForChain, symbolOfNotation } from './assets';
import { errorText, isErrorBody, type StatusAnswer, type TxStages, type WireTx } from './wire';

export interface StatusMappingContext {
  /** Target asset notation, e.g. `ETH.ETH`. */
  toAsset: string;
  /** `THOR` or `MAYA`: a swap into it has no L1 outbound. */
  nativeChain: string;
  /** Our decimals for the target asset, and the node's (1e8, or CACAO's 1e10). */
  dstDecimals: number;
  dstNodeDecimals: number;
  /** The node's precision for an asset, to describe a partial fill's refund. */
  nodeDecimalsOf?: (notation: string) => number;
  /** Our decimals for the source asset, to record what a refund returned. */
  srcDecimals?: number;
}

const ZERO_HASH = /^0+$/;
const isRefundMemo = (tx: WireTx) => (tx.memo ?? '').toUpperCase().startsWith('REFUND:');

interface Stage {
  state: string;
  detail: string;
  substatus: Substatus;
}

function latestStage(stages: TxStages): Stage {
  const { outbound_delay, outbound_signed, swap_status, inbound_finalised, inbound_confirmation_counted } = stages;
  const inbound = (state: string, detail: string): Stage => ({
    state,
    detail,
    substatus: 'WAITING_SOURCE_CONFIRMATIONS',
  });
  // THORChain holds large outbounds back on purpose (the quote's outbound_delay_seconds): a planned wait, not a delay.
  if (outbound_delay && !outbound_delay.completed) {
    const seconds = outbound_delay.remaining_delay_seconds;
    return {
      state: 'outbound_delay',
      detail: seconds
        ? `outbound held by its planned delay, about ${seconds}s remaining`
        : 'outbound held by its planned delay',
      substatus: 'WAITING_DESTINATION',
    };
  }
  if (outbound_signed) {
    return outbound_signed.completed
      ? { state: 'outbound_signed', detail: 'outbound signed, awaiting observation', substatus: 'WAITING_DESTINATION' }
      : {
          state: 'outbound_scheduled',
          detail: 'outbound scheduled, awaiting signature',
          substatus: 'WAITING_DESTINATION',
        };
  }
  if (swap_status?.pending) {
    const streaming = swap_status.streaming;
    const detail = streaming?.quantity
      ? `streaming swap ${streaming.count ?? 0}/${streaming.quantity}`
      : 'swap pending';
    return { state: 'swap_pending', detail, substatus: 'SWAPPING' };
  }
  if (swapSettled(stages)) {
    return { state: 'swap_finalised', detail: 'swap done, awaiting outbound', substatus: 'WAITING_DESTINATION' };
  }
  if (inbound_finalised?.completed) return inbound('inbound_finalised', 'inbound finalised');
  if (inbound_confirmation_counted) {
    if (inbound_confirmation_counted.completed) {
      return inbound('inbound_confirmation_counted', 'inbound confirmations counted');
    }
    const seconds = inbound_confirmation_counted.remaining_confirmation_seconds;
    return inbound(
      'inbound_confirmation_counting',
      seconds ? `waiting for inbound confirmations, about ${seconds}s remaining` : 'counting confirmations',
    );
  }
  return stages.inbound_observed.completed
    ? inbound('inbound_observed', 'inbound observed')
    : inbound('inbound_observing', 'inbound seen, awaiting observation consensus');
}

/**
 * Positive word that the swap is over. Until the inbound is final the node answers `swap_status.pending:
 * false` and leaves `swap_finalised` out (querier.go `checkPending` returns early), so neither counts alone:
 * `swap_finalised` only completes once the inbound is finalised, and newer nodes may drop it for `swap_status`.
 */
function swapSettled({ inbound_finalised, swap_finalised, swap_status }: TxStages): boolean {
  if (inbound_finalised?.completed === false) return false;
  if (swap_finalised) return swap_finalised.completed;
  return inbound_finalised?.completed === true && swap_status?.pending === false;
}

type Coin = { asset: string; amount: string };
type PlannedOut = { coin: Coin; refund?: boolean };

const sumOf = (coins: Coin[]) => coins.reduce((sum, coin) => sum + BigInt(coin.amount), 0n);

/** The swap's outbound coins of the target asset, in the node's units (sent ones, else planned ones). */
function swappedOut(swapOuts: WireTx[], plannedSwaps: PlannedOut[], ctx: StatusMappingContext): bigint | undefined {
  const target = ctx.toAsset.toUpperCase();
  const isTarget = (coin: Coin) => coin.asset.toUpperCase() === target;
  const sent = swapOuts.flatMap((tx) => tx.coins ?? []).filter(isTarget);
  const coins = sent.length ? sent : plannedSwaps.map((p) => p.coin).filter(isTarget);
  return coins.length ? sumOf(coins) : undefined;
}

/** "1.25 ETH", from an amount in the node's units. */
function amountText(amount: bigint, notation: string, decimals: number): string {
  return `${formatAmount(amount, decimals)} ${symbolOfNotation(notation)}`;
}

function partialFill(
  refundOuts: WireTx[],
  plannedRefunds: PlannedOut[],
  delivered: bigint | undefined,
  ctx: StatusMappingContext,
) {
  const refundCoins = refundOuts.length
    ? refundOuts.flatMap((tx) => tx.coins ?? [])
    : plannedRefunds.map((p) => p.coin);
  const refundAsset = refundCoins[0]?.asset ?? '';
  const refundDecimals = ctx.nodeDecimalsOf?.(refundAsset) ?? 8;
  return {
    delivered: delivered === undefined ? 'an unknown amount' : amountText(delivered, ctx.toAsset, ctx.dstNodeDecimals),
    refunded: refundCoins.length
      ? amountText(sumOf(refundCoins), refundAsset, refundDecimals)
      : 'the unswapped remainder',
  };
}

const outboundHashOf = (tx: WireTx | undefined): string | undefined =>
  tx?.id && !ZERO_HASH.test(tx.id) ? hashForChain(tx.id, tx.chain) : undefined;

/** A refund of the whole deposit: what goes back (sent coins, else planned ones) in our source decimals, and its hash. */
function wholeRefund(refundOuts: WireTx[], plannedRefunds: PlannedOut[], ctx: StatusMappingContext) {
  const coins = refundOuts.length ? refundOuts.flatMap((tx) => tx.coins ?? []) : plannedRefunds.map((p) => p.coin);
  const asset = coins[0]?.asset;
  const hash = outboundHashOf(refundOuts.at(-1));
  const sameAsset = asset !== undefined && coins.every((coin) => coin.asset === asset);
  const amountBase =
    sameAsset && ctx.srcDecimals !== undefined
      ? rescale(sumOf(coins), ctx.nodeDecimalsOf?.(asset) ?? 8, ctx.srcDecimals)
      : undefined;
  return { ...(amountBase === undefined ? {} : { amountBase }), ...(hash ? { hash } : {}) };
}

/**
 * Maps `GET /thorchain/tx/status/{hash}` to our status. A streaming swap whose
 * later sub-swaps missed the price limit sends out what it swapped and refunds the rest: both
 * outbounds appear, and that is a SUCCESS marked PARTIAL. REFUND means nothing was swapped.
 */
export function mapTxStatus(body: StatusAnswer, ctx: StatusMappingContext): StatusResult {
  if (isErrorBody(body)) {
    return {
      status: 'PENDING',
      detail: `not indexed yet${errorText(body) ? `: ${errorText(body)}` : ''}`,
      upstreamState: 'not_found',
      notFound: true,
      substatus: 'NOT_FOUND_UPSTREAM',
    };
  }
  const { stages } = body;
  if (!body.tx && !stages.inbound_observed.completed && !stages.inbound_observed.started) {
    return {
      status: 'PENDING',
      detail: 'inbound not observed yet',
      upstreamState: 'not_observed',
      notFound: true,
      substatus: 'NOT_FOUND_UPSTREAM',
    };
  }

  const inboundHash = body.tx?.id ? hashForChain(body.tx.id, body.tx.chain) : undefined;
  const planned = body.planned_out_txs ?? [];
  const outs = body.out_txs ?? [];
  const plannedRefunds = planned.filter((p) => p.refund);
  const plannedSwaps = planned.filter((p) => !p.refund);
  const refundOuts = outs.filter(isRefundMemo);
  const swapOuts = outs.filter((tx) => !isRefundMemo(tx));
  const outboundsDone = outs.length >= planned.length;
  const settled = swapSettled(stages);
  const base = { inboundHash };
  const refunding = plannedRefunds.length > 0 || refundOuts.length > 0;
  const swapped = plannedSwaps.length > 0 || swapOuts.length > 0;

  if (refunding && !swapped) {
    const refundSigned = stages.outbound_signed?.completed ?? true;
    if (outs.length > 0 && outboundsDone && refundSigned) {
      return {
        ...base,
        status: 'REFUND',
        detail: 'swap refunded to the source chain',
        upstreamState: 'refunded',
        substatus: 'REFUNDED',
        outboundHash: outboundHashOf(refundOuts.at(-1) ?? outs.at(-1)),
        refund: wholeRefund(refundOuts, plannedRefunds, ctx),
      };
    }
    return {
      ...base,
      status: 'PENDING',
      detail: 'refund in progress',
      upstreamState: 'refund_pending',
      substatus: 'REFUND_IN_PROGRESS',
      refund: wholeRefund(refundOuts, plannedRefunds, ctx),
    };
  }

  const toNativeChain = chainOfNotation(ctx.toAsset) === ctx.nativeChain;
  const outboundsComplete = planned.length > 0 && outboundsDone && settled;
  if ((toNativeChain && settled && swapped && !refunding) || outboundsComplete) {
    const delivered = swappedOut(swapOuts, plannedSwaps, ctx);
    const dstAmountBase =
      delivered === undefined ? undefined : rescale(delivered, ctx.dstNodeDecimals, ctx.dstDecimals);
    const outboundHash = outboundHashOf(swapOuts.at(-1));
    if (refunding) {
      const partial = partialFill(refundOuts, plannedRefunds, delivered, ctx);
      return {
        ...base,
        status: 'SUCCESS',
        detail: `partially swapped: ${partial.delivered} delivered, ${partial.refunded} refunded`,
        upstreamState: 'partial',
        substatus: 'PARTIAL',
        partial,
        outboundHash,
        dstAmountBase,
      };
    }
    return {
      ...base,
      status: 'SUCCESS',
      detail: 'swap complete',
      upstreamState: 'completed',
      substatus: 'COMPLETED',
      outboundHash,
      dstAmountBase,
    };
  }

  // The node's one explicit failure: it completes swap_finalised once nothing is queued and plans every outbound
  // in that same block, dropping one the fee eats (manager_txout_current.go), so none planned means none ever.
  if (settled && stages.swap_finalised && planned.length === 0 && outs.length === 0) {
    return { ...base, status: 'FAILED', detail: 'swap finalised without any outbound', upstreamState: 'failed' };
  }

  if (refunding) {
    return {
      ...base,
      status: 'PENDING',
      detail: 'partially swapped; the swapped part and the refund are on their way',
      upstreamState: 'partial_pending',
      substatus: 'WAITING_DESTINATION',
    };
  }
  const { state, detail, substatus } = latestStage(stages);
  return { ...base, status: 'PENDING', detail, upstreamState: state, substatus };
}
