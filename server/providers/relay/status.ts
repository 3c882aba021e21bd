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
  failure: { status: 'FAILED', detail: 'Unsuccessful fill' },
};

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

/** Maps a Relay intent status body (v1, v2 or v3) to ours. Unknown future states stay PENDING. */
export function mapRelayStatus(body: RelayStatusResponse): StatusResult {
  const state = body.status?.toLowerCase();
  if (!state || state === 'unknown') return relayNotFound(state);
  const known = STATE_DETAIL[state];
  const inboundHash = first(body.inTxHashes);
  const result: StatusResult = {
    status: known?.status ?? 'PENDING',
    detail: body.details || known?.detail || `Relay state ${state}`,
    upstreamState: state,
    ...(known?.substatus ? { substatus: known.substatus } : {}),
  };
  if (inboundHash) result.inboundHash = inboundHash;
  // On a refund the out-hash is the refund transaction on the origin chain.
  if (result.status === 'SUCCESS' || result.status === 'REFUND') {
    const outboundHash = first(body.txHashes);
    if (outboundHash) result.outboundHash = outboundHash;
  }
  return result;
}
