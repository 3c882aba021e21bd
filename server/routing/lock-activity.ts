import { desc } from 'drizzle-orm';
import { locks } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { type Range, rangeWindow, toDate } from '../schemas/ranges';

type LockRow = typeof locks.$inferSelect;

export type LockOutcome = 'open' | 'executing' | 'executed' | 'expired';

export function lockOutcome(lock: Pick<LockRow, 'state' | 'expiresAt'>, now = new Date()): LockOutcome {
  if (lock.state === 'used') return 'executed';
  if (lock.state === 'executing') return 'executing';
  return lock.expiresAt <= now ? 'expired' : 'open';
}

const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/** Locks created / executed / expired per bucket, conversion and time to execute by provider, the latest locks. */
export async function lockActivity(ctx: AppContext, { range }: { range: Range }) {
  const { since, until, bucket } = rangeWindow(range);
  const step = `1 ${bucket}`;
  const [series, byProvider, recent] = await Promise.all([
    ctx.sql<{ bucket: string; created: number; executed: number; expired: number }[]>`
      with buckets as (
        select generate_series(date_trunc(${bucket}, ${since}::timestamptz, 'UTC'),
                               date_trunc(${bucket}, ${until}::timestamptz, 'UTC'), ${step}::interval) as bucket
      ),
      created as (
        select date_trunc(${bucket}, created_at, 'UTC') as bucket, count(*)::int as n
        from locks where created_at >= ${since} group by 1
      ),
      executed as (
        select date_trunc(${bucket}, used_at, 'UTC') as bucket, count(*)::int as n
        from locks where state = 'used' and used_at >= ${since} group by 1
      ),
      expired as (
        select date_trunc(${bucket}, expires_at, 'UTC') as bucket, count(*)::int as n
        from locks where state = 'locked' and expires_at >= ${since} and expires_at <= now() group by 1
      )
      select b.bucket, coalesce(c.n, 0) as created, coalesce(x.n, 0) as executed, coalesce(e.n, 0) as expired
      from buckets b
      left join created c on c.bucket = b.bucket
      left join executed x on x.bucket = b.bucket
      left join expired e on e.bucket = b.bucket
      order by b.bucket`,
    ctx.sql<{ provider: string; created: number; executed: number; expired: number; medianSeconds: number | null }[]>`
      select provider,
             count(*)::int as created,
             count(*) filter (where state = 'used')::int as executed,
             count(*) filter (where state = 'locked' and expires_at <= now())::int as expired,
             percentile_cont(0.5) within group (order by extract(epoch from used_at - created_at)::float8)
               filter (where state = 'used' and used_at is not null) as "medianSeconds"
      from locks
      where created_at >= ${since}
      group by provider
      order by created desc, provider`,
    ctx.db.select().from(locks).orderBy(desc(locks.createdAt), desc(locks.id)).limit(20),
  ]);
  const totals = byProvider.reduce(
    (sum, p) => ({
      created: sum.created + p.created,
      executed: sum.executed + p.executed,
      expired: sum.expired + p.expired,
    }),
    { created: 0, executed: 0, expired: 0 },
  );
  const now = new Date();
  return {
    range,
    bucket,
    series: series.map((s) => ({
      bucket: toDate(s.bucket),
      created: s.created,
      executed: s.executed,
      expired: s.expired,
    })),
    totals: { ...totals, conversion: ratio(totals.executed, totals.created) },
    byProvider: byProvider.map((p) => ({
      provider: p.provider,
      created: p.created,
      executed: p.executed,
      expired: p.expired,
      conversion: ratio(p.executed, p.created),
      medianSecondsToExecute: p.medianSeconds === null ? null : Number(p.medianSeconds),
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
