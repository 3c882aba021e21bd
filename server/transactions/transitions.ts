import type { HashCheck, Substatus, TxStatus } from '../providers/types';

/**
 * PENDING moves anywhere; a refund may follow a failure (funds come back after it), though not an expiry (no
 * deposit came to refund); SUCCESS and REFUND are terminal. The one other way out of a final status is canReopen.
 */
export function canTransition(from: TxStatus, to: TxStatus, fromSubstatus?: string | null): boolean {
  if (from === to) return false;
  if (from === 'PENDING') return true;
  return from === 'FAILED' && fromSubstatus !== 'EXPIRED' && to === 'REFUND';
}

/** Whether the provider's check vouches for exactly this hash as the swap's deposit. */
export const verifies = (check: HashCheck | undefined, hash: string) =>
  check?.hash === hash && check.verdict === 'verified';

/**
 * The named exception to canTransition: a swap that expired waiting for its deposit (FAILED / EXPIRED) goes
 * back to PENDING when its provider verifies a hash reported later as that swap's own deposit.
 */
export const canReopen = (
  tx: { status: TxStatus; substatus: string | null },
  hash: string,
  check: HashCheck | undefined,
): boolean => tx.status === 'FAILED' && tx.substatus === 'EXPIRED' && verifies(check, hash);

/** Where a re-opened swap stands: the verified hash's deposit waits for its confirmations. */
export const REOPENED: { status: TxStatus; substatus: Substatus } = {
  status: 'PENDING',
  substatus: 'WAITING_SOURCE_CONFIRMATIONS',
};

export const isFinal = (status: TxStatus) => status !== 'PENDING';

const SETTLED_SUBSTATUS: Partial<Record<TxStatus, Substatus>> = {
  SUCCESS: 'COMPLETED',
  REFUND: 'REFUNDED',
  FAILED: 'FAILED',
};

/** The substatus a provider's answer leaves: what it reported, else what a final status implies. */
export const substatusFor = (status: TxStatus, reported: Substatus | undefined): Substatus | undefined =>
  reported ?? SETTLED_SUBSTATUS[status];
