import type { TxStatus } from '../providers/types';

/** PENDING moves anywhere; a refund may follow a failure (funds come back after it); SUCCESS and REFUND are terminal. */
export function canTransition(from: TxStatus, to: TxStatus): boolean {
  if (from === to) return false;
  if (from === 'PENDING') return true;
  return from === 'FAILED' && to === 'REFUND';
}

export const isFinal = (status: TxStatus) => status !== 'PENDING';
