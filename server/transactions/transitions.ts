import type { Substatus, TxStatus } from '../providers/types';

/** PENDING moves anywhere; a refund may follow a failure (funds come back after it); SUCCESS and REFUND are terminal. */
export function canTransition(from: TxStatus, to: TxStatus): boolean {
  if (from === to) return false;
  if (from === 'PENDING') return true;
  return from === 'FAILED' && to === 'REFUND';
}

export const isFinal = (status: TxStatus) => status !== 'PENDING';

const SETTLED_SUBSTATUS: Partial<Record<TxStatus, Substatus>> = {
  SUCCESS: 'COMPLETED',
  REFUND: 'REFUNDED',
  FAILED: 'FAILED',
};

/** The substatus a provider's answer leaves: what it reported, else what a final status implies. */
export const substatusFor = (status: TxStatus, reported: Substatus | undefined): Substatus | undefined =>
  reported ?? SETTLED_SUBSTATUS[status];
