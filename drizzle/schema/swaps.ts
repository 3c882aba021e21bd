import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { TX_STATUSES } from '../../server/transactions/statuses';

export const lockState = pgEnum('lock_state', ['locked', 'executing', 'used']);
export const transactionStatus = pgEnum('transaction_status', TX_STATUSES);
export const apiInterface = pgEnum('api_interface', ['v1', 'legacy']);

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};

export interface AssetSnapshot {
  id: number | null;
  symbol: string | null;
  contract: string | null;
  image: string | null;
  chain: string | null;
  decimals?: number;
}

export const locks = pgTable(
  'locks',
  {
    id: text('id').primaryKey(),
    interface: apiInterface('interface').notNull().default('v1'),
    provider: text('provider').notNull(),
    routeId: text('route_id').notNull(),
    srcChain: text('src_chain').notNull(),
    srcAssetId: integer('src_asset_id').notNull(),
    dstChain: text('dst_chain').notNull(),
    dstAssetId: integer('dst_asset_id').notNull(),
    amount: text('amount').notNull(),
    amountBase: numeric('amount_base', { precision: 78, scale: 0 }).notNull(),
    slippageBps: integer('slippage_bps').notNull(),
    depositor: text('depositor').notNull(),
    recipient: text('recipient').notNull(),
    /** The referral code as the client gave it (trimmed), registered or not. */
    referralCode: text('referral_code'),
    /** The code's owner when it was registered and active at lock: credit never moves to whoever registers it later. */
    referralOwnerId: text('referral_owner_id'),
    /** The public route as returned by lock. */
    route: jsonb('route').$type<Record<string, unknown>>().notNull(),
    /** Provider quote data needed to execute; never sent to clients. */
    providerQuote: jsonb('provider_quote').$type<Record<string, unknown>>().notNull(),
    state: lockState('state').notNull().default('locked'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    transactionId: text('transaction_id'),
    ...timestamps,
  },
  (t) => [
    index('locks_created_idx').on(t.createdAt),
    index('locks_provider_created_idx').on(t.provider, t.createdAt),
    index('locks_executing_idx').on(t.claimedAt).where(sql`${t.state} = 'executing'`),
    // Locks never executed, oldest first: what retention deletes, without walking past the executed ones.
    index('locks_unexecuted_created_idx').on(t.createdAt).where(sql`${t.state} = 'locked'`),
  ],
);

export const transactions = pgTable(
  'transactions',
  {
    id: text('id').primaryKey(),
    lockId: text('lock_id')
      .notNull()
      .unique()
      .references(() => locks.id),
    provider: text('provider').notNull(),
    status: transactionStatus('status').notNull().default('PENDING'),
    /** Where the swap stands in the SUBSTATUSES vocabulary; null until something reports progress. */
    substatus: text('substatus'),
    hash: text('hash').notNull().default(''),
    inboundHash: text('inbound_hash').notNull().default(''),
    outboundHash: text('outbound_hash'),
    /** Lookup forms of the three hashes: hex lowercased without 0x, others verbatim. */
    hashKey: text('hash_key'),
    inboundHashKey: text('inbound_hash_key'),
    outboundHashKey: text('outbound_hash_key'),
    /** When the provider confirmed `hash` is this swap's own deposit; a verified hash is never replaced. */
    hashVerifiedAt: timestamp('hash_verified_at', { withTimezone: true, mode: 'date' }),
    srcChain: text('src_chain').notNull(),
    dstChain: text('dst_chain').notNull(),
    srcAsset: jsonb('src_asset').$type<AssetSnapshot>().notNull(),
    dstAsset: jsonb('dst_asset').$type<AssetSnapshot>().notNull(),
    /** The snapshots' catalog ids, indexed: symbol and chain searches resolve through the catalog to these. */
    srcAssetId: integer('src_asset_id').generatedAlwaysAs(sql`(src_asset->>'id')::integer`),
    dstAssetId: integer('dst_asset_id').generatedAlwaysAs(sql`(dst_asset->>'id')::integer`),
    srcAmount: text('src_amount').notNull(),
    dstAmount: text('dst_amount').notNull(),
    srcAmountBase: numeric('src_amount_base', { precision: 78, scale: 0 }).notNull(),
    dstAmountBase: numeric('dst_amount_base', { precision: 78, scale: 0 }),
    amountUsd: numeric('amount_usd', { precision: 38, scale: 8 }),
    walletAddress: text('wallet_address').notNull(),
    recipientWalletAddress: text('recipient_wallet_address').notNull(),
    /** Lookup forms of the wallets: lowercase for EVM, verbatim otherwise. */
    walletKey: text('wallet_key').notNull(),
    recipientWalletKey: text('recipient_wallet_key').notNull(),
    /** The fee quoted at execute, in USD; a poll never changes it. */
    quotedFeeUsd: numeric('quoted_fee_usd', { precision: 38, scale: 8 }),
    /** The fee the provider recorded, in `fee_currency` (a native amount); set by polls only. */
    feeAmount: text('fee_amount'),
    feeCurrency: text('fee_currency'),
    /** The recorded fee in USD, when the provider reports one. */
    feeAmountUsd: numeric('fee_amount_usd', { precision: 38, scale: 8 }),
    /** The best USD figure for the fee: the recorded one, else the quoted one. */
    feeUsd: numeric('fee_usd', { precision: 38, scale: 8 }).generatedAlwaysAs(
      sql`coalesce(fee_amount_usd, quoted_fee_usd)`,
    ),
    feeDetails: jsonb('fee_details'),
    /** The code as given at lock or execute; `referral_owner_id` only when it was registered and active then. */
    referralCode: text('referral_code'),
    referralOwnerId: text('referral_owner_id'),
    quote: jsonb('quote').$type<Record<string, unknown>>().notNull(),
    providerResult: jsonb('provider_result').$type<Record<string, unknown>>().notNull(),
    /** The execute answer as the swapper got it (deposit details, wallet call), to show again until done. */
    execution: jsonb('execution').$type<Record<string, unknown>>(),
    /** Server-side provider context for status polling (request id, channel id, deposit address…). */
    trackingContext: jsonb('tracking_context').$type<Record<string, unknown>>().notNull(),
    nextPollAt: timestamp('next_poll_at', { withTimezone: true, mode: 'date' }),
    lastPolledAt: timestamp('last_polled_at', { withTimezone: true, mode: 'date' }),
    pollAttempts: integer('poll_attempts').notNull().default(0),
    pollErrors: integer('poll_errors').notNull().default(0),
    lastPollError: text('last_poll_error'),
    lastUpstreamState: text('last_upstream_state'),
    stale: boolean('stale').notNull().default(false),
    /** The last moment the provider takes this swap's deposit; past it plus a grace period, a swap with none ends EXPIRED. */
    depositDeadline: timestamp('deposit_deadline', { withTimezone: true, mode: 'date' }),
    finalizedAt: timestamp('finalized_at', { withTimezone: true, mode: 'date' }),
    /** When the swap is usually done: its start plus its route's p90 (server/route-times); null without route times. */
    expectedBy: timestamp('expected_by', { withTimezone: true, mode: 'date' }),
    /** Past this while pending, the swap is late: its start plus p90 × LATE_FACTOR. */
    lateAt: timestamp('late_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    // text_pattern_ops serves both the exact lookups and the dashboard's prefix search, in any collation.
    index('transactions_hash_key_idx').on(t.hashKey.op('text_pattern_ops')),
    index('transactions_inbound_hash_key_idx').on(t.inboundHashKey.op('text_pattern_ops')),
    index('transactions_outbound_hash_key_idx').on(t.outboundHashKey.op('text_pattern_ops')),
    index('transactions_wallet_created_idx').on(t.walletKey, t.createdAt, t.id, t.status),
    index('transactions_recipient_created_idx').on(t.recipientWalletKey, t.createdAt, t.id, t.status),
    index('transactions_referral_created_idx').on(t.referralCode, t.createdAt, t.id, t.status),
    index('transactions_created_idx').on(t.createdAt, t.id),
    // Each list index ends with the status, so a status filter is checked in the index (index-only).
    index('transactions_status_created_idx').on(t.status, t.createdAt, t.id),
    index('transactions_provider_created_idx').on(t.provider, t.createdAt, t.id, t.status),
    index('transactions_src_asset_created_idx').on(t.srcAssetId, t.createdAt, t.id, t.status),
    index('transactions_dst_asset_created_idx').on(t.dstAssetId, t.createdAt, t.id, t.status),
    index('transactions_referral_owner_created_idx')
      .on(t.referralOwnerId, t.createdAt, t.id)
      .where(sql`${t.referralOwnerId} is not null`),
    // The dashboard's "largest first" sort, read in either direction.
    index('transactions_amount_created_idx').on(t.amountUsd.desc().nullsLast(), t.createdAt.desc(), t.id.desc()),
    index('transactions_stale_idx').on(t.createdAt, t.id).where(sql`${t.status} = 'PENDING' and ${t.stale}`),
    index('transactions_due_poll_idx').on(t.nextPollAt).where(sql`${t.status} = 'PENDING'`),
    // Pending swaps by when they turn late, with their creation time: the late filter's page sorts from it alone.
    index('transactions_late_created_idx')
      .on(t.lateAt, t.id, t.createdAt)
      .where(sql`${t.status} = 'PENDING' and ${t.lateAt} is not null`),
    // Pending swaps in creation order with what the late filters test: "not late" and its count read no heap row.
    index('transactions_pending_created_idx')
      .on(t.createdAt, t.id, t.lateAt, t.status)
      .where(sql`${t.status} = 'PENDING'`),
    // Swaps still waiting for their deposit, by when the provider stops taking it: what the expiry sweep reads.
    index('transactions_awaiting_deposit_idx')
      .on(t.depositDeadline)
      .where(sql`${t.status} = 'PENDING' and ${t.hash} = '' and ${t.inboundHash} = ''`),
  ],
);

export const transactionEvents = pgTable(
  'transaction_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transactionId: text('transaction_id')
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    fromStatus: transactionStatus('from_status'),
    toStatus: transactionStatus('to_status'),
    message: text('message').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('transaction_events_tx_idx').on(t.transactionId, t.id)],
);

export const referralCodes = pgTable(
  'referral_codes',
  {
    code: text('code').primaryKey(),
    ownerId: text('owner_id').notNull(),
    label: text('label'),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  // The code lists page newest first, everyone's or one owner's.
  (t) => [
    index('referral_codes_created_idx').on(t.createdAt, t.code),
    index('referral_codes_owner_created_idx').on(t.ownerId, t.createdAt, t.code),
  ],
);

export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    minute: timestamp('minute', { withTimezone: true, mode: 'date' }).notNull(),
    routeClass: text('route_class').notNull(),
    clientHash: text('client_hash').notNull(),
    hits: integer('hits').notNull(),
  },
  (t) => [primaryKey({ columns: [t.minute, t.routeClass, t.clientHash] })],
);

/** One row per provider call (quote, lock, execute, status), for latency percentiles and error rates. */
export const providerCalls = pgTable(
  'provider_calls',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    stage: text('stage').notNull(),
    outcome: text('outcome').notNull(),
    latencyMs: integer('latency_ms'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('provider_calls_provider_created_idx').on(t.provider, t.createdAt),
    index('provider_calls_created_idx').on(t.createdAt),
  ],
);

/**
 * The first response to each Idempotency-Key, per endpoint and client, kept in Postgres beside the
 * work it guards, so a retry replays it even across a Redis outage or restart.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    keyHash: text('key_hash').notNull(),
    fingerprint: text('fingerprint').notNull(),
    state: text('state', { enum: ['in_flight', 'done'] }).notNull(),
    status: integer('status'),
    /** The response body as sent: text, so a replay is byte for byte the original (jsonb reorders keys). */
    body: text('body'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.keyHash] }), index('idempotency_keys_expires_idx').on(t.expiresAt)],
);
