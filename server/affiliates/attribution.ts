import { desc } from 'drizzle-orm';
import type { Viewer } from '../auth/roles';
import type { AppContext } from '../context';
import type { AffiliateStatsInput } from '../schemas/affiliates';
import { rangeWindow, toDate } from '../schemas/ranges';
import { presentTransactionSummary } from '../transactions/search';
import { affiliateScope } from './codes';

const finishedRate = (succeeded: number, finished: number) => (finished > 0 ? succeeded / finished : null);

/** Attribution for the codes in scope over a range: totals, a series, each code, and the latest swaps. */
export async function affiliateOverview(ctx: AppContext, viewer: Viewer, input: AffiliateStatsInput) {
  const { ownerId } = affiliateScope(viewer, input.ownerId);
  const { since, until, bucket } = rangeWindow(input.range);
  const step = `1 ${bucket}`;
  const inScope = ownerId === null ? ctx.sql`true` : ctx.sql`rc.owner_id = ${ownerId}`;
  // A swap counts for a code only when it was credited at lock or execute, to the code's owner then: a
  // code registered after strangers used it inherits none of their swaps. Swaps keep the code as given.
  const attributed = ctx.sql`t.referral_owner_id = rc.owner_id and lower(t.referral_code) = lower(rc.code)`;

  const [codes, series, recentIds] = await Promise.all([
    ctx.sql<
      {
        code: string;
        label: string | null;
        active: boolean;
        createdAt: string;
        ownerId: string;
        ownerEmail: string | null;
        swaps: number;
        succeeded: number;
        finished: number;
        volumeUsd: string;
        feesUsd: string;
      }[]
    >`
      select rc.code, rc.label, rc.active, rc.created_at as "createdAt", rc.owner_id as "ownerId",
             u.email as "ownerEmail",
             count(t.id)::int as swaps,
             count(t.id) filter (where t.status = 'SUCCESS')::int as succeeded,
             count(t.id) filter (where t.status <> 'PENDING')::int as finished,
             coalesce(sum(t.amount_usd) filter (where t.status = 'SUCCESS'), 0)::text as "volumeUsd",
             coalesce(sum(t.fee_usd) filter (where t.status = 'SUCCESS'), 0)::text as "feesUsd"
      from referral_codes rc
      left join auth_user u on u.id = rc.owner_id
      left join transactions t on ${attributed} and t.created_at >= ${since}
      where ${inScope}
      group by rc.code, u.email
      order by rc.created_at desc, rc.code`,
    ctx.sql<{ bucket: string; swaps: number; volumeUsd: string; feesUsd: string }[]>`
      with buckets as (
        select generate_series(date_trunc(${bucket}, ${since}::timestamptz, 'UTC'),
                               date_trunc(${bucket}, ${until}::timestamptz, 'UTC'), ${step}::interval) as bucket
      ),
      attributed as (
        select date_trunc(${bucket}, t.created_at, 'UTC') as bucket, count(*)::int as swaps,
               coalesce(sum(t.amount_usd) filter (where t.status = 'SUCCESS'), 0) as volume,
               coalesce(sum(t.fee_usd) filter (where t.status = 'SUCCESS'), 0) as fees
        from transactions t join referral_codes rc on ${attributed}
        where t.created_at >= ${since} and ${inScope}
        group by 1
      )
      select b.bucket, coalesce(a.swaps, 0) as swaps,
             coalesce(a.volume, 0)::text as "volumeUsd", coalesce(a.fees, 0)::text as "feesUsd"
      from buckets b left join attributed a on a.bucket = b.bucket
      order by b.bucket`,
    ctx.sql<{ id: string }[]>`
      select t.id from transactions t join referral_codes rc on ${attributed}
      where ${inScope}
      order by t.created_at desc, t.id desc
      limit 20`,
  ]);

  const recent = recentIds.length
    ? await ctx.db.query.transactions.findMany({
        where: (t, { inArray }) =>
          inArray(
            t.id,
            recentIds.map((r) => r.id),
          ),
        orderBy: (t) => [desc(t.createdAt), desc(t.id)],
      })
    : [];

  const totals = codes.reduce(
    (sum, c) => ({
      swaps: sum.swaps + c.swaps,
      succeeded: sum.succeeded + c.succeeded,
      finished: sum.finished + c.finished,
      volumeUsd: sum.volumeUsd + Number(c.volumeUsd),
      feesUsd: sum.feesUsd + Number(c.feesUsd),
    }),
    { swaps: 0, succeeded: 0, finished: 0, volumeUsd: 0, feesUsd: 0 },
  );

  return {
    ownerId,
    range: input.range,
    bucket,
    totals: {
      codes: codes.length,
      swaps: totals.swaps,
      volumeUsd: totals.volumeUsd,
      feesUsd: totals.feesUsd,
      successRate: finishedRate(totals.succeeded, totals.finished),
    },
    codes: codes.map((c) => ({
      code: c.code,
      label: c.label,
      active: c.active,
      createdAt: toDate(c.createdAt),
      ownerId: c.ownerId,
      ownerEmail: c.ownerEmail,
      swaps: c.swaps,
      volumeUsd: Number(c.volumeUsd),
      feesUsd: Number(c.feesUsd),
      successRate: finishedRate(c.succeeded, c.finished),
    })),
    series: series.map((s) => ({
      bucket: toDate(s.bucket),
      swaps: s.swaps,
      volumeUsd: Number(s.volumeUsd),
      feesUsd: Number(s.feesUsd),
    })),
    recent: recent.map(presentTransactionSummary),
  };
}
export type AffiliateOverview = Awaited<ReturnType<typeof affiliateOverview>>;
