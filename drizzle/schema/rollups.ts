import { bigint, bigserial, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { transactionStatus } from './swaps';

/**
 * Aggregates the dashboard and the public API read instead of the raw tables, so what they read does
 * not grow with the data. Swaps: every change of a row that counts is one insert-only delta (a
 * trigger, in the writer's transaction: no shared row is updated on the execute path); the
 * maintenance job folds deltas into the totals, and readers add the unfolded ones. Locks and
 * provider calls: the job rolls each hour up once it can no longer change (`rollup_watermarks`);
 * readers take later rows live.
 */

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const usdSum = (name: string) => numeric(name, { precision: 38, scale: 8 }).notNull().default('0');
const count = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

/** One swap entering (+1) or leaving (−1) a cell: the transaction's dimensions as they were or are. */
export const swapRollupDeltas = pgTable('swap_rollup_deltas', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** The swap's `created_at`, to the hour (UTC). */
  hour: at('hour').notNull(),
  provider: text('provider').notNull(),
  /** 0 when the snapshot names no catalog asset. */
  srcAssetId: integer('src_asset_id').notNull(),
  dstAssetId: integer('dst_asset_id').notNull(),
  status: transactionStatus('status').notNull(),
  referralCode: text('referral_code'),
  referralOwnerId: text('referral_owner_id'),
  walletKey: text('wallet_key'),
  recipientWalletKey: text('recipient_wallet_key'),
  swaps: integer('swaps').notNull(),
  /** `amount_usd` and `fee_usd` of a SUCCESS swap, signed like `swaps`; 0 otherwise. */
  volumeUsd: usdSum('volume_usd'),
  feesUsd: usdSum('fees_usd'),
});

/** Every swap by provider, asset pair and status: exact public history totals for the broad filters. */
export const swapCounts = pgTable(
  'swap_counts',
  {
    provider: text('provider').notNull(),
    srcAssetId: integer('src_asset_id').notNull(),
    dstAssetId: integer('dst_asset_id').notNull(),
    status: transactionStatus('status').notNull(),
    swaps: count('swaps'),
  },
  (t) => [primaryKey({ columns: [t.provider, t.srcAssetId, t.dstAssetId, t.status] })],
);

/** The same cells per referral code as given (registered or not): totals of the `referralCode` filter. */
export const referralSwapCounts = pgTable(
  'referral_swap_counts',
  {
    referralCode: text('referral_code').notNull(),
    provider: text('provider').notNull(),
    srcAssetId: integer('src_asset_id').notNull(),
    dstAssetId: integer('dst_asset_id').notNull(),
    status: transactionStatus('status').notNull(),
    swaps: count('swaps'),
  },
  (t) => [primaryKey({ columns: [t.referralCode, t.provider, t.srcAssetId, t.dstAssetId, t.status] })],
);

/**
 * Swaps per (sender, recipient) pair and status: the swaps between two of the wallets a history names,
 * which the per-wallet counts below would count once for each.
 */
export const walletPairCounts = pgTable(
  'wallet_pair_counts',
  {
    walletKey: text('wallet_key').notNull(),
    recipientWalletKey: text('recipient_wallet_key').notNull(),
    status: transactionStatus('status').notNull(),
    swaps: count('swaps'),
  },
  (t) => [primaryKey({ columns: [t.walletKey, t.recipientWalletKey, t.status] })],
);

/**
 * Swaps per wallet and status with the wallet on either side (a swap to oneself once): a wallet's
 * history total is one row per status, however many senders pay a hot recipient.
 */
export const walletCounts = pgTable(
  'wallet_counts',
  {
    walletKey: text('wallet_key').notNull(),
    status: transactionStatus('status').notNull(),
    swaps: count('swaps'),
  },
  (t) => [primaryKey({ columns: [t.walletKey, t.status] })],
);

/** Swaps created per hour by provider and status (where they stand now): the 24 h KPIs. */
export const swapHourly = pgTable(
  'swap_hourly',
  {
    hour: at('hour').notNull(),
    provider: text('provider').notNull(),
    status: transactionStatus('status').notNull(),
    swaps: count('swaps'),
    volumeUsd: usdSum('volume_usd'),
    feesUsd: usdSum('fees_usd'),
  },
  (t) => [primaryKey({ columns: [t.hour, t.provider, t.status] })],
);

const affiliateColumns = {
  referralCode: text('referral_code').notNull(),
  referralOwnerId: text('referral_owner_id').notNull(),
  swaps: count('swaps'),
  succeeded: count('succeeded'),
  /** Swaps no longer PENDING: the success rate's denominator. */
  finished: count('finished'),
  volumeUsd: usdSum('volume_usd'),
  feesUsd: usdSum('fees_usd'),
};

/** Credited swaps (a `referral_owner_id`) per hour of creation, code as given and owner. */
export const affiliateHourly = pgTable('affiliate_hourly', { hour: at('hour').notNull(), ...affiliateColumns }, (t) => [
  primaryKey({ columns: [t.hour, t.referralCode, t.referralOwnerId] }),
]);

/** The same per day (UTC), for ranges of days. */
export const affiliateDaily = pgTable('affiliate_daily', { day: at('day').notNull(), ...affiliateColumns }, (t) => [
  primaryKey({ columns: [t.day, t.referralCode, t.referralOwnerId] }),
]);

/** A sparse histogram: bucket number (see server/rollups/histogram.ts) → count. */
export type HistogramCounts = Record<string, number>;

const lockColumns = {
  provider: text('provider').notNull(),
  created: count('created'),
  executed: count('executed'),
  /** Never executed, and past their expiry. */
  expired: count('expired'),
  /** Seconds from lock to execute of the executed ones. */
  secondsToExecute: jsonb('seconds_to_execute').$type<HistogramCounts>().notNull().default({}),
};

/** Locks per hour of creation and provider, and what became of them; rolled once the hour has settled. */
export const lockActivityHourly = pgTable(
  'lock_activity_hourly',
  { hour: at('hour').notNull(), ...lockColumns },
  (t) => [primaryKey({ columns: [t.hour, t.provider] })],
);

export const lockActivityDaily = pgTable('lock_activity_daily', { day: at('day').notNull(), ...lockColumns }, (t) => [
  primaryKey({ columns: [t.day, t.provider] }),
]);

const providerCallColumns = {
  provider: text('provider').notNull(),
  quoteCalls: count('quote_calls'),
  /** Quote calls that failed ("no route" is an answer, not an error). */
  quoteErrors: count('quote_errors'),
  quoteLatencyMs: jsonb('quote_latency_ms').$type<HistogramCounts>().notNull().default({}),
};

/** Provider quote calls per hour: the operations trend charts, kept longer than the raw calls. */
export const providerCallHourly = pgTable(
  'provider_call_hourly',
  { hour: at('hour').notNull(), ...providerCallColumns },
  (t) => [primaryKey({ columns: [t.hour, t.provider] })],
);

export const providerCallDaily = pgTable(
  'provider_call_daily',
  { day: at('day').notNull(), ...providerCallColumns },
  (t) => [primaryKey({ columns: [t.day, t.provider] })],
);

/** How far each hour-by-hour rollup has gone: every row created before `rolled_until` is in it. */
export const rollupWatermarks = pgTable('rollup_watermarks', {
  name: text('name').primaryKey(),
  rolledUntil: at('rolled_until').notNull(),
});
