/**
 * Every status a transaction can have. The Postgres enum is built from this list, so its order is
 * the enum's order, which is what sorting by status follows.
 */
export const TX_STATUSES = ['PENDING', 'SUCCESS', 'FAILED', 'REFUND'] as const;
export type TxStatus = (typeof TX_STATUSES)[number];
