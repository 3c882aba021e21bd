import type { StatusResult, Substatus, TxStatus } from '../types';
import type { RelayStatusResponse } from './wire';

/** Relay's own wording for each state (docs: Get Status, `/intents/status/v3`). */
const STATE_DETAIL: Record<string, { status: TxStatus; detail: string; substatus?: Substatus }> = {
  waiting: { status: 'PENDING', detail: 'Waiting for deposit confirmation', substatus: 'WAITING_SOURCE_CONFIRMATIONS' },
  depositing: { status: 'PENDING', detail: 'Origin deposit confirmed, pending fill', substatus: 'WAITING_DESTINATION' },
  pending: {
    status: 'PENDING',
    detail: 'Deposit confirmed, pending destination chain submission',
    substatus: 'WAITING_DESTINATION',
  },
  received: { status: 'PENDING', detail: 'Deposit received, pending fill', substatus: 'WAITING_DESTINATION' },
  submitted: { status: 'PENDING', detail: 'Destination transaction submitted', substatus: 'WAITING_DESTINATION' },
  delayed: { status: 'PENDING', detail: 'Destination fill delayed, still processing', substatus: 'DELAYED' },
  success: { status: 'SUCCESS', detail: 'Successful fill on destination', substatus: 'COMPLETED' },
  refund: { status: 'REFUND', detail: 'Successfully refunded', substatus: 'REFUNDED' },
  // v1 `/intents/status`: "fallback is returned in the case of a refund".
  fallback: { status: 'REFUND', detail: 'Successfully refunded', substatus: 'REFUNDED' },
  failure: {
    status: 'PENDING',
    detail: 'Unsuccessful fill reported; waiting for the refund that usually follows',
    substatus: 'REFUND_IN_PROGRESS',
  },
};

/**
 * How long Relay's `failure` must hold before it is final. Relay's own client does not take it as final
 * (relay-kit packages/sdk/src/utils/executeSteps/websocketHandlers.ts: "pending -> failure -> pending ->
 * refund"); its socket waits 2 s for a change, which a poll every few seconds cannot see, so ours waits
 * out a refund's usual time instead.
 */
export const RELAY_FAILURE_FINAL_AFTER_MS = 10 * 60_000;

/** When the body last changed, in ms: v3 `updatedAt` and v2 `time` are unix seconds. */
function changedAtMs(body: RelayStatusResponse): number | undefined {
  const at = body.updatedAt ?? body.time;
  if (at === undefined) return undefined;
  return at < 1e12 ? at * 1000 : at;
}

/**
 * The clock a failure's age is judged by, and when tracking first saw it (absent: this answer is the first),
 * which counts when Relay's body carries no timestamp.
 */
export interface FailureClock {
  now: number;
  firstSeen?: number;
}

const first = (hashes: string[] | null | undefined): string | undefined => hashes?.find((h) => h.length > 0);

/** The answer for a request Relay does not know (yet): keep polling. */
export function relayNotFound(upstreamState = 'unknown'): StatusResult {
  return {
    status: 'PENDING',
    detail: 'Relay has not indexed this request yet',
    upstreamState,
    notFound: true,
    substatus: 'NOT_FOUND_UPSTREAM',
  };
}

/**
 * Maps a Relay intent status body (v1, v2 or v3) to ours. Unknown future states stay PENDING; `failure`
 * is a refund in progress until it has held for RELAY_FAILURE_FINAL_AFTER_MS by `clock`: since Relay's own
 * timestamp, else since tracking first saw it.
 */
export function mapRelayStatus(body: RelayStatusResponse, clock?: FailureClock): StatusResult {
  const state = body.status?.toLowerCase();
  if (!state || state === 'unknown') return relayNotFound(state);
  const failedFor = clock && clock.now - (changedAtMs(body) ?? clock.firstSeen ?? clock.now);
  const known =
    state === 'failure' && failedFor !== undefined && failedFor >= RELAY_FAILURE_FINAL_AFTER_MS
      ? { status: 'FAILED' as const, detail: 'Unsuccessful fill, and no refund followed' }
      : STATE_DETAIL[state];
  const inboundHash = first(body.inTxHashes);
  const result: StatusResult = {
    status: known?.status ?? 'PENDING',
    detail: body.details || known?.detail || `Relay state ${state}`,
    upstreamState: state,
    ...(known?.substatus ? { substatus: known.substatus } : {}),
    ...(state === 'failure' ? { timed: true } : {}),
  };
  if (inboundHash) result.inboundHash = inboundHash;
  // On a refund the out-hash is the refund transaction on the origin chain.
  if (result.status === 'SUCCESS' || result.status === 'REFUND') {
    const outboundHash = first(body.txHashes);
    if (outboundHash) result.outboundHash = outboundHash;
  }
  // The whole deposit goes back (Relay states no refunded amount): its transaction once there is one.
  if (result.status === 'REFUND' || result.substatus === 'REFUND_IN_PROGRESS') {
    result.refund = result.outboundHash ? { hash: result.outboundHash } : {};
  }
  return result;
}
