import { desc, eq, sql } from 'drizzle-orm';
import { referralCodes } from '../../drizzle/schema';
import type { Viewer } from '../auth/roles';
import type { AppContext } from '../context';
import { AppError, notFound } from '../errors';
import { rangeWindow, toDate } from './ranges';
import type { AffiliateStatsInput, CreateReferralCodeInput } from './schemas';
import { presentTransactionSummary } from './transactions';

/** Whose codes a viewer may see: an affiliate only their own, an admin anyone's (or everyone's). */
export function affiliateScope(viewer: Viewer, requestedOwnerId?: string): { ownerId: string | null } {
  if (viewer.role === 'admin') return { ownerId: requestedOwnerId ?? null };
  // Someone else's id reads as unknown rather than forbidden, so ids cannot be probed.
  if (requestedOwnerId && requestedOwnerId !== viewer.userId) throw notFound('Affiliate', 'ownerId');
  return { ownerId: viewer.userId };
}

const UNIQUE_VIOLATION = '23505';

/** Codes are unique ignoring case, so `ACME` and `acme` can never belong to two people. */
export async function createReferralCode(ctx: AppContext, ownerId: string, input: CreateReferralCodeInput) {
  const taken = () =>
    new AppError('VALIDATION_ERROR', `The referral code "${input.code}" is already taken`, {
      field: 'code',
      status: 409,
      retryable: false,
    });
  const [existing] = await ctx.db
    .select({ code: referralCodes.code })
    .from(referralCodes)
    .where(eq(sql`lower(${referralCodes.code})`, input.code.toLowerCase()))
    .limit(1);
  if (existing) throw taken();
  try {
    const [row] = await ctx.db
      .insert(referralCodes)
      .values({ code: input.code, ownerId, label: input.label || null })
      .returning();
    if (!row) throw new AppError('INTERNAL_ERROR', 'Referral code not stored');
    return { code: row.code, label: row.label, active: row.active, createdAt: row.createdAt };
  } catch (error) {
    if ((error as { code?: unknown })?.code === UNIQUE_VIOLATION) throw taken();
    const cause = (error as { cause?: { code?: unknown } })?.cause;
    if (cause?.code === UNIQUE_VIOLATION) throw taken();
    throw error;
  }
}

const finishedRate = (succeeded: number, finished: number) => (finished > 0 ? succeeded / finished : null);

/** Attribution for the codes in scope over a range: totals, a series, each code, and the latest swaps. */
export async function affiliateOverview(ctx: AppContext, viewer: Viewer, input: AffiliateStatsInput) {
  const { ownerId } = affiliateScope(viewer, input.ownerId);
  const { since, until, bucket } = rangeWindow(input.range);
  const step = `1 ${bucket}`;
  const inScope = ownerId === null ? ctx.sql`true` : ctx.sql`rc.owner_id = ${ownerId}`;
  // A swap counts for a code only when it was attributed at lock or execute, to the code's owner
  // then: a code registered after strangers used it inherits none of their swaps.
  const attributed = ctx.sql`t.referral_code = rc.code and t.referral_owner_id = rc.owner_id`;

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

/** For the admin's affiliate picker: every user who is an affiliate or owns a code. */
export async function listAffiliates(ctx: AppContext) {
  return ctx.sql<{ id: string; name: string; email: string; role: string; codes: number }[]>`
    select u.id, u.name, u.email, u.role, count(rc.code)::int as codes
    from auth_user u left join referral_codes rc on rc.owner_id = u.id
    where u.role = 'affiliate' or rc.code is not null
    group by u.id
    order by u.email`;
}
