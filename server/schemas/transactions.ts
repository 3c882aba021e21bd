import { z } from 'zod';
import { TX_STATUSES, type TxStatus } from '../transactions/statuses';
import {
  booleanParam,
  dateBound,
  keysetCursorParam,
  listParam,
  paginationQuery,
  recordId,
  searchParam,
  storable,
} from './common';
import { referralCodeSchema } from './swap';

export const MAX_HISTORY_ADDRESSES = 20;

export const transactionIdParam = z.string('must be a string').trim().min(1, 'must not be empty').max(64, 'too long');

const hashParam = z.string().trim().min(1, 'must not be empty').max(256, 'too long');

export const statusQuery = z
  .object({ transactionId: transactionIdParam.optional(), hash: hashParam.optional() })
  .superRefine((q, ctx) => {
    if (!q.transactionId && !q.hash) {
      ctx.addIssue({ code: 'custom', path: ['transactionId'], message: 'transactionId or hash is required' });
    }
  });

export const trackBody = z.object({
  transactionId: z
    .string({ error: (iss) => (iss.input === undefined ? 'Required' : 'must be a string') })
    .trim()
    .min(1, 'must not be empty')
    .max(64)
    .describe('Public transaction ID from execute'),
  txHash: z
    .string('must be a string')
    .trim()
    .min(1, 'must not be empty')
    .max(8192, 'too long')
    .optional()
    .describe('Source, deposit or inbound hash; a TON external-message BoC is accepted. Omit when there is none'),
});

const statusList = listParam(z.enum(TX_STATUSES, { error: `each status must be one of ${TX_STATUSES.join(', ')}` }), 4);
const addressList = listParam(z.string().max(128, 'address too long'), MAX_HISTORY_ADDRESSES);

export const historyQueryV1 = z.object({
  ...paginationQuery(20, 50),
  addresses: addressList.optional(),
  query: searchParam.optional(),
  referralCode: referralCodeSchema.optional(),
  transactionId: transactionIdParam.optional(),
  statuses: statusList.optional(),
  finalizedOnly: booleanParam.optional(),
  cursor: keysetCursorParam.optional(),
});

export const historyQueryLegacy = z.object({
  ...paginationQuery(20, 50),
  addresses: addressList.optional(),
  search: searchParam.optional(),
  statuses: statusList.optional(),
  finalizedOnly: booleanParam.optional(),
});

export type StatusQuery = z.output<typeof statusQuery>;
export type TrackBody = z.output<typeof trackBody>;
export type HistoryQueryV1 = z.output<typeof historyQueryV1>;

export interface HistoryFilter {
  page: number;
  perPage: number;
  addresses?: string[];
  search?: string;
  referralCode?: string;
  transactionId?: string;
  statuses?: TxStatus[];
  finalizedOnly?: boolean;
  /** Keyset pagination: continue after the page that returned this `nextCursor`. */
  cursor?: string;
}

/** The support search counts matches up to this many; its pages reach no further (narrow the search instead). */
export const SEARCH_MATCHES_CAP = 10_000;

/** The support search over every transaction. */
export const TRANSACTION_SORT_FIELDS = ['createdAt', 'amountUsd', 'status', 'provider', 'lateness'] as const;
export type TransactionSortField = (typeof TRANSACTION_SORT_FIELDS)[number];

export const transactionSearchInput = z
  .object({
    /** A transaction id, lock id, any of the three hashes, or a wallet. */
    query: storable(z.string().trim().max(256)).optional(),
    statuses: z.array(z.enum(TX_STATUSES)).max(TX_STATUSES.length).optional(),
    provider: storable(z.string().trim().max(32)).optional(),
    /** Matches the source or the destination chain. */
    chain: storable(z.string().trim().max(32)).optional(),
    from: dateBound.optional(),
    to: dateBound.optional(),
    referralCode: storable(z.string().trim().max(64)).optional(),
    stale: z.boolean().optional(),
    /** Pending swaps past their route's p90 × LATE_FACTOR. */
    late: z.boolean().optional(),
    sort: z
      .object({ field: z.enum(TRANSACTION_SORT_FIELDS), direction: z.enum(['asc', 'desc']) })
      .default({ field: 'createdAt', direction: 'desc' }),
    page: z.number().int().min(1).max(100_000).default(1),
    perPage: z.number().int().min(1).max(100).default(25),
  })
  .refine((input) => !input.from || !input.to || input.from <= input.to, {
    path: ['to'],
    message: 'Choose an end date on or after the start date',
  })
  .refine((input) => (input.page - 1) * input.perPage < SEARCH_MATCHES_CAP, {
    path: ['page'],
    message: `Only the first ${SEARCH_MATCHES_CAP.toLocaleString('en-US')} matches can be paged through; narrow the search`,
  });
export type TransactionSearchInput = z.output<typeof transactionSearchInput>;

export const transactionIdInput = z.object({ id: recordId });
