import { desc } from 'drizzle-orm';
import { type HistogramCounts, locks } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { addCounts, percentile, SECONDS_TO_EXECUTE } from '../rollups/histogram';
import { lockActivityRows } from '../rollups/locks';
import { rolledUntil } from '../rollups/watermarks';
import { bucketKey, bucketStarts, windowParts } from '../rollups/window';
import { RANGE_WINDOWS, type Range } from '../schemas/ranges';

type LockRow = typeof locks.$inferSelect;

export type LockOutcome = 'open' | 'executing' | 'executed' | 'expired';

export function lockOutcome(lock: Pick<LockRow, 'state' | 'expiresAt'>, now = new Date()): LockOutcome {
  if (lock.state === 'used') return 'executed';
  if (lock.state === 'executing') return 'executing';
  return lock.expiresAt <= now ? 'expired' : 'open';
}

const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);

interface Cell {
  bucket: string;
  provider: string;
  created: string | number;
  executed: string | number;
  expired: string | number;
  ttx: HistogramCounts;
}

/**
 * Locks per bucket of creation, by provider: settled hours from the rollups (whole days from the
 * daily one), the rest (the hour in progress and the ones not rolled yet) from the raw rows, read
 * through `created_at`.
 */
async function activityCells(ctx: AppContext, range: Range, now: Date) {
  const { hours, bucket } = RANGE_WINDOWS[range];
  const since = new Date(now.getTime() - hours * 3600_000);
  const parts = windowParts(since, now, await rolledUntil(ctx, 'locks'), bucket === 'day');
  const sources = [
    ...parts.raw.map((s) => lockActivityRows(ctx, bucket, s.from, s.to, now)),
    ...parts.hours.map(
      (s) => ctx.sql`
        select date_trunc(${bucket}, hour, 'UTC') as bucket, provider, created, executed, expired,
               seconds_to_execute as ttx
        from lock_activity_hourly
        where hour >= ${s.from.toISOString()}::timestamptz and hour < ${s.to.toISOString()}::timestamptz`,
    ),
    ...(parts.days
      ? [
          ctx.sql`
            select day as bucket, provider, created, executed, expired, seconds_to_execute as ttx
            from lock_activity_daily
            where day >= ${parts.days.from.toISOString()}::timestamptz and day < ${parts.days.to.toISOString()}::timestamptz`,
        ]
      : []),
  ];
  const cells = (await Promise.all(sources)).flat() as unknown as Cell[];
  return { since, bucket, cells };
}

/** Locks created / executed / expired per bucket, conversion and time to execute by provider, the latest locks. */
export async function lockActivity(ctx: AppContext, { range }: { range: Range }, now = new Date()) {
  const [{ since, bucket, cells }, recent] = await Promise.all([
    activityCells(ctx, range, now),
    ctx.db.select().from(locks).orderBy(desc(locks.createdAt), desc(locks.id)).limit(20),
  ]);
  const series = new Map(
    bucketStarts(since, now, bucket).map((b) => [b.getTime(), { bucket: b, created: 0, executed: 0, expired: 0 }]),
  );
  const providers = new Map<
    string,
    { provider: string; created: number; executed: number; expired: number; ttx: Map<number, number> }
  >();
  for (const c of cells) {
    const [created, executed, expired] = [Number(c.created), Number(c.executed), Number(c.expired)];
    const point = series.get(bucketKey(c.bucket));
    if (point) {
      point.created += created;
      point.executed += executed;
      point.expired += expired;
    }
    const p = providers.get(c.provider) ?? {
      provider: c.provider,
      created: 0,
      executed: 0,
      expired: 0,
      ttx: new Map(),
    };
    p.created += created;
    p.executed += executed;
    p.expired += expired;
    addCounts(p.ttx, c.ttx);
    providers.set(c.provider, p);
  }
  const byProvider = [...providers.values()].sort(
    (a, b) => b.created - a.created || a.provider.localeCompare(b.provider),
  );
  const totals = byProvider.reduce(
    (sum, p) => ({
      created: sum.created + p.created,
      executed: sum.executed + p.executed,
      expired: sum.expired + p.expired,
    }),
    { created: 0, executed: 0, expired: 0 },
  );
  return {
    range,
    bucket,
    series: [...series.values()],
    totals: { ...totals, conversion: ratio(totals.executed, totals.created) },
    byProvider: byProvider.map((p) => ({
      provider: p.provider,
      created: p.created,
      executed: p.executed,
      expired: p.expired,
      conversion: ratio(p.executed, p.created),
      medianSecondsToExecute: percentile(SECONDS_TO_EXECUTE, p.ttx, 0.5),
    })),
    recent: recent.map((l) => ({
      id: l.id,
      provider: l.provider,
      srcChain: l.srcChain,
      dstChain: l.dstChain,
      amount: l.amount,
      outcome: lockOutcome(l, now),
      createdAt: l.createdAt,
      expiresAt: l.expiresAt,
      usedAt: l.usedAt,
      transactionId: l.transactionId,
    })),
  };
}
export type LockActivity = Awaited<ReturnType<typeof lockActivity>>;
