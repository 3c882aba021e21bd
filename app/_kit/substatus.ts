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

/**
 * What the swapper reads about where their swap stands (the /tx status line): a headline when there
 * is one, and the sentence under it. Support reads the same, to know what the swapper was told.
 */
export function swapperSees(tx: SwapPosition, provider: string): { headline: string | null; text: string } {
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
  const headline = substatusText(tx);
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
