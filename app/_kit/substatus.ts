import type { components } from '@/client/switchyard-api';

type Transaction = components['schemas']['Transaction'];
type Substatus = NonNullable<Transaction['substatus']>;

/** Each substatus as the swapper reads it; support sees the same words. */
export const SUBSTATUS_TEXT: Record<Substatus, string> = {
  WAITING_SOURCE_CONFIRMATIONS: 'Waiting for the deposit to confirm',
  SWAPPING: 'Swapping',
  WAITING_DESTINATION: 'Sending to the destination',
  REFUND_IN_PROGRESS: 'Refund on its way',
  DELAYED: 'Taking longer than usual',
  COMPLETED: 'Completed',
  PARTIAL: 'Partly filled; the rest was refunded',
  REFUNDED: 'Refunded',
  EXPIRED: 'Expired before a deposit arrived',
  FAILED: 'Failed',
  NOT_FOUND_UPSTREAM: 'Waiting for the provider to see the deposit',
  HASH_REJECTED: 'The hash you reported is not this swap’s deposit',
};

/** Where a swap stands, as far as its words go. */
export type SwapPosition = Pick<Transaction, 'status' | 'substatus' | 'hash' | 'inboundHash'> &
  Partial<Pick<Transaction, 'reason'>>;

/** A provider answers these before any deposit exists (a Chainflip channel, a Relay request). */
const BEFORE_DEPOSIT: ReadonlySet<Substatus> = new Set(['WAITING_SOURCE_CONFIRMATIONS', 'NOT_FOUND_UPSTREAM']);

/** No source transaction is known: the swapper is shown how to pay (deposit instructions or the wallet step). */
export const awaitingDeposit = (tx: SwapPosition) => tx.status === 'PENDING' && !tx.hash && !tx.inboundHash;

/** A substatus as read: with no source transaction known, nothing is confirming yet, a deposit is awaited. */
export function substatusText(tx: Pick<SwapPosition, 'substatus' | 'hash' | 'inboundHash'>): string | null {
  if (!tx.substatus) return null;
  if (!tx.hash && !tx.inboundHash && BEFORE_DEPOSIT.has(tx.substatus)) return 'Waiting for the deposit';
  return SUBSTATUS_TEXT[tx.substatus];
}

const STATUS_TEXT: Record<Transaction['status'], string> = {
  PENDING: 'The swap is in progress. This page updates on its own.',
  SUCCESS: 'The swap completed and the funds were delivered.',
  FAILED: 'The swap failed. If funds were sent, the provider may still refund them.',
  REFUND: 'The swap was refunded to the source wallet.',
};

/** The provider's reason inside our sentence: no full stop of its own, and lower case unless it starts with a name. */
const inSentence = (reason: string) => reason.replace(/\.$/, '').replace(/^[A-Z](?=[a-z ])/, (c) => c.toLowerCase());

const REFUNDING: ReadonlySet<Substatus> = new Set(['REFUND_IN_PROGRESS', 'REFUNDED']);

/** Why the money goes back, and what happens to it: the provider's reason, when it gave one. */
function refundText(tx: SwapPosition, provider: string): string {
  const why = tx.reason ? `${provider} could not swap it: ${inSentence(tx.reason)}. ` : '';
  return tx.substatus === 'REFUNDED' || tx.status === 'REFUND'
    ? `${why}The deposit was sent back to the wallet it came from, less the network fee for sending it back.`
    : `${why}${provider} is sending the deposit back to the wallet it came from, less the network fee for sending it back; nothing is needed from you.`;
}

/** How a pending swap's time compares: `known` when it has its route's usual time (`expectedBy`), `passed` once past it (or past the provider's estimate). */
export interface SwapTime {
  known: boolean;
  passed: boolean;
}

/**
 * The one notice that a pending swap is slow. Late, against its route's usual time, when it has one;
 * without one, the stale flag's "Taking longer than usual" (substatus DELAYED) as the last resort, else
 * late against the provider's estimate.
 */
export function delayNotice(tx: Pick<SwapPosition, 'status' | 'substatus'>, time: SwapTime): 'late' | 'stale' | null {
  if (tx.status !== 'PENDING') return null;
  if (time.known) return time.passed ? 'late' : null;
  if (tx.substatus === 'DELAYED') return 'stale';
  return time.passed ? 'late' : null;
}

/**
 * What the swapper reads about where their swap stands (the /tx status line): a headline when there
 * is one, and the sentence under it. Support reads the same, to know what the swapper was told. A swap
 * with its route's usual time (`time.known`) is said to be slow beside that time, not in the headline.
 */
export function swapperSees(
  tx: SwapPosition,
  provider: string,
  time: Pick<SwapTime, 'known'> = { known: false },
): { headline: string | null; text: string } {
  if (tx.substatus === 'HASH_REJECTED') {
    return {
      headline: SUBSTATUS_TEXT.HASH_REJECTED,
      text: `${provider} has no record tying that transaction to this swap. Check that you copied the hash of the transaction that paid this swap, then report it below; nothing is lost while you do.`,
    };
  }
  if (awaitingDeposit(tx)) {
    return {
      headline: null,
      text: 'Waiting for you: the swap starts once your deposit or wallet transaction arrives.',
    };
  }
  // DELAYED with a route time is never the notice (delayNotice): the time beside it says whether it is late.
  const headline = tx.substatus === 'DELAYED' && time.known ? null : substatusText(tx);
  const refunding = tx.status === 'REFUND' || (tx.substatus !== null && REFUNDING.has(tx.substatus));
  if (refunding) return { headline, text: refundText(tx, provider) };
  if (tx.status === 'FAILED' && tx.reason) {
    return {
      headline,
      text: `${provider} reports: ${inSentence(tx.reason)}. If funds were sent, ${provider} may still refund them.`,
    };
  }
  return { headline, text: STATUS_TEXT[tx.status] };
}
