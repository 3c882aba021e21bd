import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SUBSTATUS_PROGRESS, whatCounts } from '../tracking/apply-status';
import type { PollFields } from '../tracking/poll-row';
import { canReopen, isFinal, REOPENED } from '../transactions/transitions';
import { mapSwapStatus } from './chainflip/status';
import type { SwapStatusBody } from './chainflip/wire';
import { mapLifiStatus } from './lifi/status';
import type { LifiStatusResponse } from './lifi/wire';
import { mapRelayStatus, RELAY_FAILURE_FINAL_AFTER_MS } from './relay/status';
import type { RelayStatusResponse } from './relay/wire';
import { resolveAsset } from './thorchain/sim-market';
import { type SimSwap, type Stage as ThorStage, statusBody as thorStatusBody } from './thorchain/sim-swaps';
import { mapTxStatus } from './thorchain/status';
import { type InboundExpectation, inboundMismatch } from './thorchain/verify';
import type { StatusAnswer } from './thorchain/wire';
import { firstSeenAt, type HashCheck, type StatusResult, type Substatus } from './types';

/** Where a walk stands when a state is answered: the time, and the row as tracking last wrote it. */
interface Poll {
  now: number;
  /** When the walk entered the state answered. */
  entered: number;
  row: PollFields;
}

/**
 * One upstream state of a provider's documented graph: what it answers, and whether the provider is done
 * (`finalAfterMs`: a state that may be shown final once it has held this long upstream, Relay's failure).
 */
interface UpstreamState {
  name: string;
  final: boolean;
  finalAfterMs?: number;
  map(poll: Poll): StatusResult;
}

interface StateGraph {
  start: string;
  states: Record<string, UpstreamState>;
  /** Where each state may go next (a state with none is where the provider stops). */
  next: Record<string, string[]>;
}

const state = (name: string, final: boolean, map: (poll: Poll) => StatusResult): UpstreamState => ({
  name,
  final,
  map,
});

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

// Relay's failure is judged by how long it has held: by its `updatedAt` when the body has one, else since
// tracking first saw it (recorded in the row's tracking context). Both bodies are played.
const RELAY_START = Date.UTC(2026, 10, 1, 12, 0, 0);
const relayBody = (status: string, txHashes: string[] = [], updatedAtMs?: number) =>
  ({
    status,
    inTxHashes: ['0xin'],
    txHashes,
    ...(updatedAtMs === undefined ? {} : { updatedAt: Math.floor(updatedAtMs / 1000) }),
  }) as RelayStatusResponse;
const relay =
  (status: string, txHashes: string[] = []) =>
  ({ now, row }: Poll) =>
    mapRelayStatus(relayBody(status, txHashes), relayClock(now, row));
const relayClock = (now: number, row: PollFields) => {
  const firstSeen = firstSeenAt(row.trackingContext, 'failure');
  return { now, ...(firstSeen === undefined ? {} : { firstSeen }) };
};
/** A failure dated by Relay: its updatedAt is when the walk entered it. */
const relayDatedFailure = ({ now, row, entered }: Poll) =>
  mapRelayStatus(relayBody('failure', [], entered), relayClock(now, row));
const RELAY: StateGraph = {
  start: 'waiting',
  states: {
    waiting: state('waiting', false, () => mapRelayStatus({ status: 'waiting' })),
    depositing: state('depositing', false, relay('depositing')),
    pending: state('pending', false, relay('pending')),
    submitted: state('submitted', false, relay('submitted')),
    delayed: state('delayed', false, relay('delayed')),
    success: state('success', true, relay('success', ['0xfill'])),
    failure: { ...state('failure', false, relay('failure')), finalAfterMs: RELAY_FAILURE_FINAL_AFTER_MS },
    datedFailure: { ...state('datedFailure', false, relayDatedFailure), finalAfterMs: RELAY_FAILURE_FINAL_AFTER_MS },
    pendingRefund: state('pendingRefund', false, relay('pending')),
    refund: state('refund', true, relay('refund', ['0xrefund'])),
  },
  next: {
    waiting: ['depositing'],
    depositing: ['pending'],
    pending: ['submitted', 'failure', 'datedFailure', 'delayed'],
    delayed: ['submitted'],
    submitted: ['success'],
    failure: ['pendingRefund', 'refund'],
    datedFailure: ['pendingRefund', 'refund'],
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

// ---- Walks: forward moves along the graph, repeats, and polls answered from an older state, time passing.

type Move = { kind: 'advance' | 'repeat' | 'stale'; pick: number; elapsedMs: number };
const elapsedMs = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 1, max: 400 }).map((s) => s * 1000),
  fc.constantFrom(RELAY_FAILURE_FINAL_AFTER_MS - 1000, RELAY_FAILURE_FINAL_AFTER_MS),
);
const moves = fc.array(
  fc.record({
    kind: fc.constantFrom<Move['kind']>('advance', 'advance', 'repeat', 'stale'),
    pick: fc.nat(10),
    elapsedMs,
  }),
  { maxLength: 24 },
);

interface Answer {
  state: UpstreamState;
  stale: boolean;
  now: number;
  entered: number;
}

/** The states a poller is answered with, each marked stale when an older state answered it, and when. */
function walk(graph: StateGraph, path: Move[], start = RELAY_START): Answer[] {
  let current = graph.start;
  let now = start;
  const entered = new Map([[current, now]]);
  const seen = [current];
  const answers: Answer[] = [{ state: graph.states[current] as UpstreamState, stale: false, now, entered: now }];
  for (const { kind, pick, elapsedMs } of path) {
    now += elapsedMs;
    const options = graph.next[current] ?? [];
    if (kind === 'advance' && options.length) {
      current = options[pick % options.length] as string;
      seen.push(current);
      if (!entered.has(current)) entered.set(current, now);
    }
    const name = kind === 'stale' ? (seen[pick % seen.length] as string) : current;
    answers.push({
      state: graph.states[name] as UpstreamState,
      stale: name !== current,
      now,
      entered: entered.get(name) ?? now,
    });
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
    srcAsset: { decimals: 18 },
    dstAsset: { decimals: 18 },
  }) as unknown as PollFields;

/** May this answer be final: the upstream is done, or a timed state has held its window upstream. */
const mayBeFinal = ({ state: upstream, now, entered }: Answer) =>
  upstream.final || (upstream.finalAfterMs !== undefined && now - entered >= upstream.finalAfterMs);

/** One poll answered and recorded as tracking records it; asserts what must hold of that one step. */
function pollStep(row: PollFields, answer: Answer, finalGiven: { status: string; documented: boolean } | undefined) {
  const { state: upstream, stale, now, entered } = answer;
  const result = upstream.map({ now, entered, row });
  if (isFinal(result.status)) {
    expect(mayBeFinal(answer), `${upstream.name} gave ${result.status} after ${now - entered} ms`).toBe(true);
  }
  // An upstream that said it is done is not contradicted later; a timed FAILED may still see its refund.
  if (finalGiven?.documented && !stale)
    expect(result.status, `${upstream.name} after ${finalGiven.status}`).toBe(finalGiven.status);
  const { patch } = whatCounts(row, result, {}, new Date(now));
  const next = { ...row, ...patch } as PollFields;
  if (row.substatus && next.substatus) {
    expect(SUBSTATUS_PROGRESS[next.substatus as Substatus]).toBeGreaterThanOrEqual(
      SUBSTATUS_PROGRESS[row.substatus as Substatus],
    );
  }
  if (row.inboundHash) expect(next.inboundHash).toBe(row.inboundHash);
  if (row.outboundHash && next.status === row.status) expect(next.outboundHash).toBe(row.outboundHash);
  // Nothing leaves a final status but a refund observed after a failure.
  if (isFinal(row.status) && next.status !== row.status)
    expect(`${row.status} → ${next.status}`).toBe('FAILED → REFUND');
  return { next, documented: upstream.final };
}

/** Polls a walk of `graph` from `row`, asserting every step; the row it ends with and each status it showed. */
function replay(graph: StateGraph, path: Move[], start = freshRow()) {
  let row = start;
  const statuses: string[] = [];
  let finalGiven: { status: string; documented: boolean } | undefined;
  for (const answer of walk(graph, path)) {
    const { next, documented } = pollStep(row, answer, finalGiven);
    if (isFinal(next.status) && next.status !== finalGiven?.status) finalGiven = { status: next.status, documented };
    row = next;
    statuses.push(row.status);
  }
  return { row, statuses };
}

describe.each([
  ['THORChain', THORCHAIN],
  ['Chainflip', CHAINFLIP],
  ['Relay', RELAY],
  ['LI.FI', LIFI],
] as const)('%s: status mapping over its documented state graph', (_provider, graph) => {
  it('is final only when the upstream is, never contradicts a final status, and never moves substatus or hashes back', () => {
    fc.assert(
      fc.property(moves, (path) => {
        replay(graph, path);
      }),
      { numRuns: 300 },
    );
  });
});

describe('Relay: a failure held past its window, then a refund', () => {
  it('shows no FAILED inside the window, FAILED once past it, and only REFUND after FAILED', () => {
    const refundAfter = fc.constantFrom('pendingRefund', 'refund');
    fc.assert(
      fc.property(
        fc.array(elapsedMs, { minLength: 1, maxLength: 8 }),
        refundAfter,
        fc.boolean(),
        (gaps, after, dated) => {
          const failure = dated ? 'datedFailure' : 'failure';
          const path: Move[] = [
            { kind: 'advance', pick: 0, elapsedMs: 1000 },
            { kind: 'advance', pick: 0, elapsedMs: 1000 },
            { kind: 'advance', pick: RELAY.next.pending?.indexOf(failure) ?? 0, elapsedMs: 1000 },
            ...gaps.map((gap) => ({ kind: 'repeat' as const, pick: 0, elapsedMs: gap })),
            { kind: 'advance', pick: after === 'pendingRefund' ? 0 : 1, elapsedMs: 1000 },
            { kind: 'advance', pick: 0, elapsedMs: 1000 },
          ];
          const { row, statuses } = replay(RELAY, path);
          const held = gaps.reduce((sum, gap) => sum + gap, 0);
          expect(statuses.includes('FAILED')).toBe(held >= RELAY_FAILURE_FINAL_AFTER_MS);
          expect(row.status).toBe('REFUND');
        },
      ),
      { numRuns: 300 },
    );
  });
});

// ---- THORChain: a deposit-address swap expired waiting for its deposit, and a hash reported later.

const OUR_SWAP = thorSwap('success');
const OUR_DEPOSIT: InboundExpectation = {
  inboundAddress: OUR_SWAP.vault,
  memo: OUR_SWAP.memo,
  amount: OUR_SWAP.amount,
  depositor: OUR_SWAP.sender,
  checkSender: false,
};
const expiredRow = (): PollFields =>
  ({
    ...freshRow(),
    provider: 'THORCHAIN',
    status: 'FAILED',
    substatus: 'EXPIRED',
    finalizedAt: new Date(0),
  }) as PollFields;

/** A hash reported late: paid to our vault with our memo or not, and whether the node has observed it. */
const lateReport = fc.record({
  hash: fc.constantFrom('A'.repeat(64), 'B'.repeat(64)),
  vault: fc.constantFrom(OUR_SWAP.vault, 'bc1qsomeoneelsesvault'),
  memo: fc.constantFrom(OUR_SWAP.memo, '=:ETH.ETH:0x000000000000000000000000000000000000dEaD'),
  observed: fc.boolean(),
});
type LateReport = typeof lateReport extends fc.Arbitrary<infer T> ? T : never;

/** The node's word on a late hash, as the adapter gives it: verified only for an inbound to our vault with our memo. */
function nodeCheck(report: LateReport): HashCheck {
  if (!report.observed) return { hash: report.hash, verdict: 'unknown', decidesStatus: true };
  const mismatch = inboundMismatch(
    {
      id: report.hash,
      to_address: report.vault,
      memo: report.memo,
      coins: [{ asset: 'BTC.BTC', amount: OUR_SWAP.amount.toString() }],
    },
    OUR_DEPOSIT,
  );
  return mismatch
    ? { hash: report.hash, verdict: 'rejected', reason: mismatch, decidesStatus: true }
    : { hash: report.hash, verdict: 'verified', decidesStatus: true };
}

describe('THORChain: an expired swap re-opens only through a verified late hash', () => {
  it('leaves FAILED / EXPIRED for PENDING only on a report the node verifies, then walks to its real end', () => {
    const step = fc.oneof(
      fc.record({ report: lateReport }),
      fc.record({ poll: fc.constantFrom(...Object.keys(THORCHAIN.states)) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), moves, (before, after) => {
        let row = expiredRow();
        for (const move of before) {
          if ('report' in move) {
            const check = nodeCheck(move.report);
            const reopens = canReopen(row, move.report.hash, check);
            expect(reopens).toBe(row.substatus === 'EXPIRED' && check.verdict === 'verified');
            if (reopens) {
              expect(move.report).toMatchObject({ vault: OUR_SWAP.vault, memo: OUR_SWAP.memo, observed: true });
              row = { ...row, ...REOPENED, hash: move.report.hash };
            }
          } else if (row.status !== 'PENDING') {
            // Whatever the node says of other hashes meanwhile, a poll's answer never re-opens it.
            const result = (THORCHAIN.states[move.poll] as UpstreamState).map({ now: 0, entered: 0, row });
            const { patch } = whatCounts(row, result, {});
            expect({ ...row, ...patch }).toMatchObject({ status: 'FAILED', substatus: 'EXPIRED' });
          }
          if (row.status === 'PENDING') break;
        }
        if (row.status !== 'PENDING') return;
        expect(replay(THORCHAIN, after, row).row.substatus).not.toBe('EXPIRED');
      }),
      { numRuns: 300 },
    );
  });
});
