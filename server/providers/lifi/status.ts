import { formatUnits } from 'viem';
import type { StatusResult, Substatus, TxStatus } from '../types';
import { sumUsd, usdNumber } from './usd';
import type { LifiFeeCost, LifiStatusResponse } from './wire';

export interface StatusExpectation {
  /** The destination token we quoted; a PARTIAL delivery in another token gets no `dstAmountBase`. */
  dstTokenAddress?: string;
  /** Our catalog's key for a LI.FI chain id of the swap's two sides. */
  chainKeyOf?: (lifiChainId: number) => string | undefined;
}

const SUBSTATUS: Record<string, Substatus> = {
  WAIT_SOURCE_CONFIRMATIONS: 'WAITING_SOURCE_CONFIRMATIONS',
  WAIT_DESTINATION_TRANSACTION: 'WAITING_DESTINATION',
  BRIDGE_NOT_AVAILABLE: 'DELAYED',
  CHAIN_NOT_AVAILABLE: 'DELAYED',
  UNKNOWN_ERROR: 'DELAYED',
  REFUND_IN_PROGRESS: 'REFUND_IN_PROGRESS',
  COMPLETED: 'COMPLETED',
  PARTIAL: 'PARTIAL',
  REFUNDED: 'REFUNDED',
  EXPIRED: 'EXPIRED',
};

function substatusOf(body: LifiStatusResponse): Substatus | undefined {
  if (body.status === 'NOT_FOUND') return 'NOT_FOUND_UPSTREAM';
  if (body.status === 'INVALID') return 'DELAYED';
  return body.substatus ? SUBSTATUS[body.substatus] : undefined;
}

const PENDING_DETAILS: Record<string, string> = {
  WAIT_SOURCE_CONFIRMATIONS: 'waiting for source chain confirmations',
  WAIT_DESTINATION_TRANSACTION: 'bridging; waiting for the destination transaction',
  BRIDGE_NOT_AVAILABLE: 'the bridge API is temporarily unavailable',
  CHAIN_NOT_AVAILABLE: 'a chain RPC is temporarily unavailable',
  REFUND_IN_PROGRESS: 'a refund is in progress',
  UNKNOWN_ERROR: 'status temporarily undetermined',
};

const FAILED_DETAILS: Record<string, string> = {
  INSUFFICIENT_ALLOWANCE: 'insufficient allowance',
  INSUFFICIENT_BALANCE: 'insufficient balance',
  OUT_OF_GAS: 'out of gas',
  EXPIRED: 'the quote expired',
  SLIPPAGE_EXCEEDED: 'slippage exceeded',
  NOT_PROCESSABLE_REFUND_NEEDED: 'not processable; a refund is needed',
  UNKNOWN_FAILED_ERROR: 'unknown failure',
};

function classify(body: LifiStatusResponse): TxStatus {
  switch (body.status) {
    case 'NOT_FOUND':
    case 'PENDING':
      return 'PENDING';
    case 'DONE':
      return body.substatus === 'REFUNDED' ? 'REFUND' : 'SUCCESS';
    case 'FAILED':
      return body.substatus === 'REFUNDED' ? 'REFUND' : 'FAILED';
    // "A third party service is not available": no evidence of failure, however long it lasts.
    case 'INVALID':
      return 'PENDING';
  }
}

function summarize(body: LifiStatusResponse, status: TxStatus): string {
  const sub = body.substatus;
  if (body.status === 'NOT_FOUND') return 'LI.FI has not seen the source transaction yet';
  if (body.status === 'INVALID') {
    return 'LI.FI cannot determine the transfer right now (a third-party service is not available); still waiting';
  }
  if (status === 'REFUND') return 'the transfer failed and was refunded';
  if (body.status === 'PENDING') return `in progress: ${(sub && PENDING_DETAILS[sub]) ?? sub ?? 'pending'}`;
  if (body.status === 'DONE' && sub === 'PARTIAL') {
    const symbol = body.receiving?.token?.symbol;
    return `partially completed: received ${symbol ?? 'an alternative token'} instead of the requested token`;
  }
  if (body.status === 'DONE') return 'completed';
  return `failed: ${(sub && FAILED_DETAILS[sub]) ?? sub ?? 'unknown reason'}`;
}

function deliveredAmount(
  body: LifiStatusResponse,
  status: TxStatus,
  expectation: StatusExpectation,
): bigint | undefined {
  const amount = body.receiving?.amount;
  if (status !== 'SUCCESS' || !amount) return undefined;
  const received = body.receiving?.token?.address;
  const expected = expectation.dstTokenAddress;
  if (body.substatus === 'PARTIAL' && (!received || !expected || received.toLowerCase() !== expected.toLowerCase())) {
    return undefined;
  }
  return BigInt(amount);
}

function recordedFee(feeCosts: LifiFeeCost[] | undefined): StatusResult['fee'] {
  const total = sumUsd((feeCosts ?? []).map((cost) => cost.amountUSD));
  if (!feeCosts?.length || total === null) return undefined;
  return {
    amount: total,
    currency: 'USD',
    amountUsd: Number(total),
    details: feeCosts.map((cost) => ({
      label: cost.name,
      amount: formatUnits(BigInt(cost.amount), cost.token.decimals),
      currency: cost.token.symbol,
      amountUsd: usdNumber(cost.amountUSD),
      included: cost.included ?? null,
    })),
  };
}

/** Maps a `GET /v1/status` body onto our status, per LI.FI's status and substatus table. */
export function mapLifiStatus(body: LifiStatusResponse, expectation: StatusExpectation = {}): StatusResult {
  const status = classify(body);
  const substatus = substatusOf(body);
  const result: StatusResult = {
    status,
    detail: summarize(body, status),
    upstreamState: body.substatus ? `${body.status}/${body.substatus}` : body.status,
    ...(substatus ? { substatus } : {}),
  };
  if (body.status === 'NOT_FOUND') result.notFound = true;
  if (body.sending?.txHash) result.inboundHash = body.sending.txHash;
  if (body.receiving?.txHash) result.outboundHash = body.receiving.txHash;
  // A refund's `receiving` is where it landed, which can be the receiving chain (lifinance/types src/api.ts).
  const outboundChain =
    body.receiving?.chainId === undefined ? undefined : expectation.chainKeyOf?.(body.receiving.chainId);
  if (result.outboundHash && outboundChain) result.outboundChain = outboundChain;
  const delivered = deliveredAmount(body, status, expectation);
  if (delivered !== undefined) result.dstAmountBase = delivered;
  const fee = recordedFee(body.feeCosts);
  if (fee) result.fee = fee;
  return result;
}
