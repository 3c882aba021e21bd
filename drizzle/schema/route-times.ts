import {
  bigint,
  bigserial,
  doublePrecision,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import type { HistogramCounts } from './rollups';

/**
 * Observed route times (#48): a trigger records one delta per swap that succeeds (migration 0019);
 * the maintenance job folds them into per-day histograms, so a window of days is a sum of rows.
 */

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const histogram = (name: string) => jsonb(name).$type<HistogramCounts>().notNull().default({});

const routeColumns = {
  /** The day (UTC) the swap became final. */
  day: at('day').notNull(),
  provider: text('provider').notNull(),
  srcChain: text('src_chain').notNull(),
  dstChain: text('dst_chain').notNull(),
  /** 0 when the snapshot names no catalog asset. */
  srcAssetId: integer('src_asset_id').notNull(),
  dstAssetId: integer('dst_asset_id').notNull(),
};

export const routeTimeDeltas = pgTable('route_time_deltas', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  ...routeColumns,
  executeSeconds: doublePrecision('execute_seconds').notNull(),
  /** Null when no deposit was seen by the provider before the swap settled. */
  depositSeconds: doublePrecision('deposit_seconds'),
  /** The observed time shown at lock, when it came from our own settled swaps (`source: observed`). */
  shownP50Seconds: doublePrecision('shown_p50_seconds'),
  shownP90Seconds: doublePrecision('shown_p90_seconds'),
  /** The provider's estimate shown at lock instead, below the minimum sample (`source: provider`). */
  estimateSeconds: doublePrecision('estimate_seconds'),
});

export const routeTimeDaily = pgTable(
  'route_time_daily',
  {
    ...routeColumns,
    swaps: bigint('swaps', { mode: 'number' }).notNull().default(0),
    executeToFinal: histogram('execute_to_final'),
    depositToFinal: histogram('deposit_to_final'),
    /** Swaps that were shown our own p90 at lock, and those of them that finished within it. */
    promised: bigint('promised', { mode: 'number' }).notNull().default(0),
    kept: bigint('kept', { mode: 'number' }).notNull().default(0),
    /** Swaps that were shown the provider's estimate instead, and those of them that finished within it. */
    estimates: bigint('estimates', { mode: 'number' }).notNull().default(0),
    estimatesKept: bigint('estimates_kept', { mode: 'number' }).notNull().default(0),
    /** |actual − shown p50| of the promised swaps, in seconds. */
    p50Error: histogram('p50_error'),
  },
  (t) => [primaryKey({ columns: [t.day, t.provider, t.srcChain, t.dstChain, t.srcAssetId, t.dstAssetId] })],
);
