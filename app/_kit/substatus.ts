import type { components } from '@/client/switchyard-api';

type Substatus = NonNullable<components['schemas']['Transaction']['substatus']>;

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
