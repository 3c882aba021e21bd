import { rescale } from '../../catalog/amounts';
import type { StatusResult } from '../types';
import { chainOfNotation, hashForChain } from './assets';
import { errorText, isErrorBody, type StatusAnswer, type TxStages, type WireTx } from './wire';

export interface StatusMappingContext {
  /** Target asset notation, e.g. `ETH.ETH`. */
  toAsset: string;
  /** `THOR` or `MAYA`: a swap into it has no L1 outbound. */
  nativeChain: string;
  /** Our decimals for the target asset, and the node's (1e8, or CACAO's 1e10). */
  dstDecimals: number;
  dstNodeDecimals: number;
}

const ZERO_HASH = /^0+$/;
const isRefundMemo = (tx: WireTx) => (tx.memo ?? '').toUpperCase().startsWith('REFUND:');

function latestStage(stages: TxStages): { state: string; detail: string } {
  const { outbound_delay, outbound_signed, swap_status, inbound_finalised, inbound_confirmation_counted } = stages;
  if (outbound_delay && !outbound_delay.completed) {
    const seconds = outbound_delay.remaining_delay_seconds;
    return {
      state: 'outbound_delay',
      detail: seconds ? `outbound delayed, about ${seconds}s remaining` : 'outbound delayed',
    };
  }
  if (outbound_signed) {
    return outbound_signed.completed
      ? { state: 'outbound_signed', detail: 'outbound signed, awaiting observation' }
      : { state: 'outbound_scheduled', detail: 'outbound scheduled, awaiting signature' };
  }
  if (swap_status) {
    if (!swap_status.pending) return { state: 'swap_finalised', detail: 'swap done, awaiting outbound' };
    const streaming = swap_status.streaming;
    return streaming?.quantity
      ? { state: 'swap_pending', detail: `streaming swap ${streaming.count ?? 0}/${streaming.quantity}` }
      : { state: 'swap_pending', detail: 'swap pending' };
  }
  if (inbound_finalised?.completed) return { state: 'inbound_finalised', detail: 'inbound finalised' };
  if (inbound_confirmation_counted) {
    if (inbound_confirmation_counted.completed) {
      return { state: 'inbound_confirmation_counted', detail: 'inbound confirmations counted' };
    }
    const seconds = inbound_confirmation_counted.remaining_confirmation_seconds;
    return {
      state: 'inbound_confirmation_counting',
      detail: seconds ? `waiting for inbound confirmations, about ${seconds}s remaining` : 'counting confirmations',
    };
  }
  return stages.inbound_observed.completed
    ? { state: 'inbound_observed', detail: 'inbound observed' }
    : { state: 'inbound_observing', detail: 'inbound seen, awaiting observation consensus' };
}

/** Newer nodes may drop `swap_finalised`; `swap_status.pending == false` says the same. */
function swapSettled(stages: TxStages): boolean | undefined {
  if (stages.swap_finalised) return stages.swap_finalised.completed;
  if (stages.swap_status) return !stages.swap_status.pending;
  return undefined;
}

function deliveredAmount(
  outs: WireTx[],
  planned: { coin: { asset: string; amount: string } }[],
  ctx: StatusMappingContext,
): bigint | undefined {
  const target = ctx.toAsset.toUpperCase();
  const fromOuts = outs
    .filter((tx) => !isRefundMemo(tx))
    .flatMap((tx) => tx.coins ?? [])
    .filter((coin) => coin.asset.toUpperCase() === target);
  const coins = fromOuts.length ? fromOuts : planned.map((p) => p.coin).filter((c) => c.asset.toUpperCase() === target);
  if (!coins.length) return undefined;
  const total = coins.reduce((sum, coin) => sum + BigInt(coin.amount), 0n);
  return rescale(total, ctx.dstNodeDecimals, ctx.dstDecimals);
}

const outboundHashOf = (tx: WireTx | undefined): string | undefined =>
  tx?.id && !ZERO_HASH.test(tx.id) ? hashForChain(tx.id, tx.chain) : undefined;

/** Maps `GET /thorchain/tx/status/{hash}` to our status (providers.md §1.6). */
export function mapTxStatus(body: StatusAnswer, ctx: StatusMappingContext): StatusResult {
  if (isErrorBody(body)) {
    return {
      status: 'PENDING',
      detail: `not indexed yet${errorText(body) ? `: ${errorText(body)}` : ''}`,
      upstreamState: 'not_found',
      notFound: true,
    };
  }
  const { stages } = body;
  if (!body.tx && !stages.inbound_observed.completed && !stages.inbound_observed.started) {
    return { status: 'PENDING', detail: 'inbound not observed yet', upstreamState: 'not_observed', notFound: true };
  }

  const inboundHash = body.tx?.id ? hashForChain(body.tx.id, body.tx.chain) : undefined;
  const planned = body.planned_out_txs ?? [];
  const outs = body.out_txs ?? [];
  const outboundsDone = outs.length >= planned.length;
  const settled = swapSettled(stages);
  const base = { inboundHash };

  if (planned.some((p) => p.refund) || outs.some(isRefundMemo)) {
    const refundSigned = stages.outbound_signed?.completed ?? true;
    if (outs.length > 0 && outboundsDone && refundSigned) {
      return {
        ...base,
        status: 'REFUND',
        detail: 'swap refunded to the source chain',
        upstreamState: 'refunded',
        outboundHash: outboundHashOf(outs.filter(isRefundMemo).at(-1) ?? outs.at(-1)),
      };
    }
    return { ...base, status: 'PENDING', detail: 'refund in progress', upstreamState: 'refund_pending' };
  }

  const toNativeChain = chainOfNotation(ctx.toAsset) === ctx.nativeChain;
  const outboundsComplete = planned.length > 0 && outboundsDone && settled !== false;
  if ((toNativeChain && settled === true) || (!toNativeChain && outboundsComplete)) {
    return {
      ...base,
      status: 'SUCCESS',
      detail: 'swap complete',
      upstreamState: 'completed',
      outboundHash: outboundHashOf(outs.at(-1)),
      dstAmountBase: deliveredAmount(outs, planned, ctx),
    };
  }

  // THORChain has no explicit failed state: a swap finalised with neither a planned nor a sent outbound delivered nothing.
  if (settled === true && planned.length === 0 && outs.length === 0) {
    return { ...base, status: 'FAILED', detail: 'swap finalised without any outbound', upstreamState: 'failed' };
  }

  const { state, detail } = latestStage(stages);
  return { ...base, status: 'PENDING', detail, upstreamState: state };
}
