import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SUBSTATUS_PROGRESS, whatCounts } from '../tracking/apply-status';
import type { PollFields } from '../tracking/poll-row';
import { isFinal } from '../transactions/transitions';
import { mapSwapStatus } from './chainflip/status';
import type { SwapStatusBody } from './chainflip/wire';
import { mapLifiStatus } from './lifi/status';
import type { LifiStatusResponse } from './lifi/wire';
import { mapRelayStatus, RELAY_FAILURE_FINAL_AFTER_MS } from './relay/status';
import type { RelayStatusResponse } from './relay/wire';
import { resolveAsset } from './thorchain/sim-market';
import { type SimSwap, type Stage as ThorStage, statusBody as thorStatusBody } from './thorchain/sim-swaps';
import { mapTxStatus } from './thorchain/status';
import type { StatusAnswer } from './thorchain/wire';
import type { StatusResult, Substatus } from './types';

/** One upstream state of a provider's documented graph: what it answers, and whether the provider is done. */
interface UpstreamState {
  name: string;
  final: boolean;
  map(): StatusResult;
}

interface StateGraph {
  start: string;
  states: Record<string, UpstreamState>;
  /** Where each state may go next (a state with none is where the provider stops). */
  next: Record<string, string[]>;
}

const state = (name: string, final: boolean, map: () => StatusResult): UpstreamState => ({ name, final, map });

// ---- Chainflip: `GET /v2/swaps/{id}` as getSwapState builds it (chainflip-sdk-monorepo
// packages/swap/src/routes/v2/utils.ts), the partial fill whose refund is ignored first included.

const CF_DEPOSIT = { amount: '1000000000000000000', txRef: '0xdeposit', witnessedAt: 1 };
const cfEgress = (txRef?: string, witnessed = false) => ({
  amount: '500',
  scheduledAt: 2,
  ...(txRef ? { txRef } : {}),
  ...(witnessed ? { witnessedAt: 3 } : {}),
});
const CF_IGNORED = {
  amount: '400',
  scheduledAt: 2,
  failedAt: 3,
  failure: {
    failedAt: 3,
    mode: 'REFUND_OUTPUT_TOO_SMALL',
    reason: { name: 'BelowEgressDustLimit', message: 'The amount is below the minimum egress amount.' },
  },
};
const CF_ABORTED = {
  ...cfEgress(),
  failure: { failedAt: 3, mode: 'SENDING_FAILED', reason: { name: 'BroadcastAborted' } },
};
const cf = (body: Partial<SwapStatusBody>) => () =>
  mapSwapStatus({
    srcAsset: 'ETH',
    srcChain: 'Ethereum',
    destAsset: 'BTC',
    destChain: 'Bitcoin',
    fees: [],
    ...body,
  } as SwapStatusBody);
const CHAINFLIP: StateGraph = {
  start: 'WAITING',
  states: {
    WAITING: state('WAITING', false, cf({ state: 'WAITING' })),
    RECEIVING: state('RECEIVING', false, cf({ state: 'RECEIVING', deposit: CF_DEPOSIT })),
    SWAPPING: state('SWAPPING', false, cf({ state: 'SWAPPING', deposit: CF_DEPOSIT })),
    SENDING: state('SENDING', false, cf({ state: 'SENDING', deposit: CF_DEPOSIT, swapEgress: cfEgress() })),
    SENT: state('SENT', false, cf({ state: 'SENT', deposit: CF_DEPOSIT, swapEgress: cfEgress('0xpayout') })),
    COMPLETED: state(
      'COMPLETED',
      true,
      cf({ state: 'COMPLETED', deposit: CF_DEPOSIT, swapEgress: cfEgress('0xpayout', true) }),
    ),
    REFUND_SENDING: state(
      'REFUND_SENDING',
      false,
      cf({ state: 'SENDING', deposit: CF_DEPOSIT, refundEgress: cfEgress() }),
    ),
    REFUND_SENT: state(
      'REFUND_SENT',
      false,
      cf({ state: 'SENT', deposit: CF_DEPOSIT, refundEgress: cfEgress('0xrefund') }),
    ),
    REFUNDED: state(
      'REFUNDED',
      true,
      cf({ state: 'COMPLETED', deposit: CF_DEPOSIT, refundEgress: cfEgress('0xrefund', true) }),
    ),
    BOTH_SENDING: state(
      'BOTH_SENDING',
      false,
      cf({ state: 'SENDING', deposit: CF_DEPOSIT, swapEgress: cfEgress(), refundEgress: cfEgress() }),
    ),
    IGNORED_FIRST: state(
      'IGNORED_FIRST',
      false,
      cf({ state: 'FAILED', deposit: CF_DEPOSIT, swapEgress: cfEgress(), refundEgress: CF_IGNORED }),
    ),
    IGNORED_PAYOUT_SENT: state(
      'IGNORED_PAYOUT_SENT',
      false,
      cf({ state: 'FAILED', deposit: CF_DEPOSIT, swapEgress: cfEgress('0xpayout'), refundEgress: CF_IGNORED }),
    ),
    IGNORED_PAID: state(
      'IGNORED_PAID',
      true,
      cf({ state: 'FAILED', deposit: CF_DEPOSIT, swapEgress: cfEgress('0xpayout', true), refundEgress: CF_IGNORED }),
    ),
    ABORTED: state('ABORTED', true, cf({ state: 'FAILED', deposit: CF_DEPOSIT, swapEgress: CF_ABORTED })),
  },
  next: {
    WAITING: ['RECEIVING'],
    RECEIVING: ['SWAPPING'],
    SWAPPING: ['SENDING', 'REFUND_SENDING', 'BOTH_SENDING'],
    SENDING: ['SENT', 'ABORTED'],
    SENT: ['COMPLETED'],
    REFUND_SENDING: ['REFUND_SENT'],
    REFUND_SENT: ['REFUNDED'],
    BOTH_SENDING: ['IGNORED_FIRST'],
    IGNORED_FIRST: ['IGNORED_PAYOUT_SENT', 'IGNORED_PAID'],
    IGNORED_PAYOUT_SENT: ['IGNORED_PAID'],
  },
};

// ---- Relay: `/intents/status/v3`, failure walking on to a refund (relay-kit websocketHandlers.ts).

const RELAY_NOW = Date.UTC(2026, 10, 1, 12, 0, 0);
const relay =
  (status: string, updatedAtMs = RELAY_NOW - 1_000, txHashes: string[] = []) =>
  () =>
    mapRelayStatus(
      { status, inTxHashes: ['0xin'], txHashes, updatedAt: Math.floor(updatedAtMs / 1000) } as RelayStatusResponse,
      {
        now: RELAY_NOW,
        since: RELAY_NOW - 2 * RELAY_FAILURE_FINAL_AFTER_MS,
      },
    );
const RELAY: StateGraph = {
  start: 'waiting',
  states: {
    waiting: state('waiting', false, () => mapRelayStatus({ status: 'waiting' })),
    depositing: state('depositing', false, relay('depositing')),
    pending: state('pending', false, relay('pending')),
    submitted: state('submitted', false, relay('submitted')),
    delayed: state('delayed', false, relay('delayed')),
    success: state('success', true, relay('success', RELAY_NOW, ['0xfill'])),
    failure: state('failure', false, relay('failure')),
    pendingRefund: state('pendingRefund', false, relay('pending')),
    refund: state('refund', true, relay('refund', RELAY_NOW, ['0xrefund'])),
    failureHeld: state('failureHeld', true, relay('failure', RELAY_NOW - RELAY_FAILURE_FINAL_AFTER_MS)),
  },
  next: {
    waiting: ['depositing'],
    depositing: ['pending'],
    pending: ['submitted', 'failure', 'delayed'],
    delayed: ['submitted'],
    submitted: ['success'],
    failure: ['pendingRefund', 'refund', 'failureHeld'],
    pendingRefund: ['refund'],
  },
};

// ---- LI.FI: `GET /v1/status` statuses and substatuses (lifinance/types src/api.ts).

const lifi = (status: string, substatus?: string, receiving?: string) => () =>
  mapLifiStatus({
    status,
    ...(substatus ? { substatus } : {}),
    sending: { txHash: '0xin', chainId: 1 },
    ...(receiving ? { receiving: { txHash: receiving, chainId: 42161 } } : {}),
  } as LifiStatusResponse);
const LIFI: StateGraph = {
  start: 'NOT_FOUND',
  states: {
    NOT_FOUND: state('NOT_FOUND', false, () => mapLifiStatus({ status: 'NOT_FOUND' } as LifiStatusResponse)),
    INVALID: state('INVALID', false, lifi('INVALID')),
    WAIT_SOURCE: state('WAIT_SOURCE', false, lifi('PENDING', 'WAIT_SOURCE_CONFIRMATIONS')),
    WAIT_DESTINATION: state('WAIT_DESTINATION', false, lifi('PENDING', 'WAIT_DESTINATION_TRANSACTION')),
    BRIDGE_DOWN: state('BRIDGE_DOWN', false, lifi('PENDING', 'BRIDGE_NOT_AVAILABLE')),
    REFUNDING: state('REFUNDING', false, lifi('PENDING', 'REFUND_IN_PROGRESS')),
    COMPLETED: state('COMPLETED', true, lifi('DONE', 'COMPLETED', '0xout')),
    PARTIAL: state('PARTIAL', true, lifi('DONE', 'PARTIAL', '0xout')),
    REFUNDED: state('REFUNDED', true, lifi('DONE', 'REFUNDED', '0xrefund')),
    FAILED: state('FAILED', true, lifi('FAILED', 'SLIPPAGE_EXCEEDED')),
  },
  next: {
    NOT_FOUND: ['WAIT_SOURCE', 'INVALID', 'FAILED'],
    INVALID: ['WAIT_SOURCE', 'WAIT_DESTINATION'],
    WAIT_SOURCE: ['WAIT_DESTINATION', 'INVALID', 'REFUNDING'],
    WAIT_DESTINATION: ['COMPLETED', 'PARTIAL', 'BRIDGE_DOWN', 'REFUNDING', 'INVALID'],
    BRIDGE_DOWN: ['WAIT_DESTINATION'],
    REFUNDING: ['REFUNDED'],
  },
};

// ---- THORChain: `/thorchain/tx/status/{hash}` stages as the node writes them (the simulator's bodies).

const thorSwap = (outcome: SimSwap['outcome']): SimSwap => ({
  hash: 'A'.repeat(64),
  outcome,
  polls: 0,
  from: resolveAsset('BTC.BTC') as SimSwap['from'],
  to: resolveAsset('ETH.ETH') as SimSwap['to'],
  amount: 10_000_000n,
  expectedOut: 1_500_000n,
  destination: '0x86d526d6624AbC0178cF7296cD538Ecc080A95F1',
  refundAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
  sender: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
  vault: 'bc1qvault',
  memo: '=:ETH.ETH:0x86d526d6624AbC0178cF7296cD538Ecc080A95F1',
});
const thor = (outcome: SimSwap['outcome'], stage: ThorStage) => () =>
  mapTxStatus(thorStatusBody(thorSwap(outcome), stage) as StatusAnswer, {
    toAsset: 'ETH.ETH',
    nativeChain: 'THOR',
    dstDecimals: 18,
    dstNodeDecimals: 8,
  });
const THORCHAIN: StateGraph = {
  start: 'observed',
  states: {
    observed: state('observed', false, thor('success', 'observed')),
    confirmed: state('confirmed', false, thor('success', 'confirmed')),
    swapping: state('swapping', false, thor('success', 'swapping')),
    finalised: state('finalised', false, thor('success', 'finalised')),
    delay_done: state('delay_done', false, thor('success', 'delay_done')),
    signed: state('signed', true, thor('success', 'signed')),
    refund_scheduled: state('refund_scheduled', false, thor('refund', 'refund_scheduled')),
    refund_delay_done: state('refund_delay_done', false, thor('refund', 'refund_delay_done')),
    refunded: state('refunded', true, thor('refund', 'refunded')),
  },
  next: {
    observed: ['confirmed'],
    confirmed: ['swapping'],
    swapping: ['finalised', 'refund_scheduled'],
    finalised: ['delay_done'],
    delay_done: ['signed'],
    refund_scheduled: ['refund_delay_done'],
    refund_delay_done: ['refunded'],
  },
};

// ---- Walks: forward moves along the graph, repeats, and polls answered from an older state.

type Move = { kind: 'advance' | 'repeat' | 'stale'; pick: number };
const moves = fc.array(
  fc.record({ kind: fc.constantFrom<Move['kind']>('advance', 'advance', 'repeat', 'stale'), pick: fc.nat(10) }),
  { maxLength: 24 },
);

/** The states a poller is answered with, each marked stale when an older state answered it. */
function walk(graph: StateGraph, path: Move[]): { state: UpstreamState; stale: boolean }[] {
  let current = graph.start;
  const seen = [current];
  const answers = [{ state: graph.states[current] as UpstreamState, stale: false }];
  for (const { kind, pick } of path) {
    const options = graph.next[current] ?? [];
    if (kind === 'advance' && options.length) {
      current = options[pick % options.length] as string;
      seen.push(current);
    }
    const name = kind === 'stale' ? (seen[pick % seen.length] as string) : current;
    answers.push({ state: graph.states[name] as UpstreamState, stale: name !== current });
  }
  return answers;
}

const freshRow = (): PollFields =>
  ({
    id: 'tx_property',
    provider: 'TEST',
    status: 'PENDING',
    substatus: null,
    trackingContext: {},
    hash: '',
    inboundHash: '',
    outboundHash: null,
    dstAsset: { decimals: 18 },
  }) as unknown as PollFields;

describe.each([
  ['THORChain', THORCHAIN],
  ['Chainflip', CHAINFLIP],
  ['Relay', RELAY],
  ['LI.FI', LIFI],
] as const)('%s: status mapping over its documented state graph', (_provider, graph) => {
  it('is final only when the upstream is, never contradicts a final status, and never moves substatus or hashes back', () => {
    fc.assert(
      fc.property(moves, (path) => {
        let row = freshRow();
        let finalGiven: string | undefined;
        for (const { state: upstream, stale } of walk(graph, path)) {
          const result = upstream.map();
          if (isFinal(result.status)) expect(upstream.final, `${upstream.name} gave ${result.status}`).toBe(true);
          if (finalGiven && !stale) expect(result.status, `${upstream.name} after ${finalGiven}`).toBe(finalGiven);
          const { patch } = whatCounts(row, result, {});
          const next = { ...row, ...patch } as PollFields;
          if (row.substatus && next.substatus) {
            expect(SUBSTATUS_PROGRESS[next.substatus as Substatus]).toBeGreaterThanOrEqual(
              SUBSTATUS_PROGRESS[row.substatus as Substatus],
            );
          }
          if (row.inboundHash) expect(next.inboundHash).toBe(row.inboundHash);
          if (row.outboundHash && next.status === row.status) expect(next.outboundHash).toBe(row.outboundHash);
          if (isFinal(row.status)) expect(next.status).toBe(row.status);
          row = next;
          if (isFinal(row.status)) finalGiven ??= row.status;
        }
      }),
      { numRuns: 300 },
    );
  });
});
