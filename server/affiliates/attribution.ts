import { desc } from 'drizzle-orm';
import type { Viewer } from '../auth/roles';
import type { AppContext } from '../context';
import { decodeCursor, encodeCursor } from '../keyset-cursor';
import { bucketStarts, HOUR_MS, type Span, windowParts } from '../rollups/window';
import { type AffiliateStatsInput, OVERVIEW_CODES_PER_PAGE } from '../schemas/affiliates';
import { RANGE_WINDOWS, toDate } from '../schemas/ranges';
import { presentTransactionSummary } from '../transactions/search';
import { affiliateScope } from './codes';

const finishedRate = (succeeded: number, finished: number) => (finished > 0 ? succeeded / finished : null);

/** Per code (`bucket` null), per bucket (`code` null), or the window's total (both null). */
export interface CodeSums {
  code: string | null;
  bucket: string | null;
  swaps: string;
  succeeded: string;
  finished: string;
  volumeUsd: string;
  feesUsd: string;
}

const iso = (d: Date) => d.toISOString();

/** `column` within any of the spans. */
function within(ctx: AppContext, column: string, spans: Span[]) {
  const conditions = spans.map(
    (s) =>
      ctx.sql`(${ctx.sql(column)} >= ${iso(s.from)}::timestamptz and ${ctx.sql(column)} < ${iso(s.to)}::timestamptz)`,
  );
  return conditions.length ? conditions.reduce((a, b) => ctx.sql`${a} or ${b}`) : ctx.sql`false`;
}

/**
 * Credited swaps per code, per bucket and in all (`code` and `bucket` null) over the window `[since, now]`:
 * the rollups for whole hours and days (plus the deltas not folded yet), raw rows before the first whole
 * hour. The dashboard's overview and the affiliate statements both read these, so their figures agree.
 */
export function creditedSums(ctx: AppContext, ownerId: string | null, bucket: 'hour' | 'day', since: Date, now: Date) {
  const parts = windowParts(since, now, 'all', bucket === 'day');
  // The window's last hour ends it: a window in the past reads no later deltas.
  const rolledTo = new Date(Math.ceil((now.getTime() + 1) / HOUR_MS) * HOUR_MS);
  const owned = ownerId === null ? ctx.sql`referral_owner_id is not null` : ctx.sql`referral_owner_id = ${ownerId}`;
  const sources = [
    ctx.sql`
      select date_trunc(${bucket}, created_at, 'UTC'), referral_code, referral_owner_id,
             count(*), count(*) filter (where status = 'SUCCESS'), count(*) filter (where status <> 'PENDING'),
             coalesce(sum(amount_usd) filter (where status = 'SUCCESS'), 0),
             coalesce(sum(fee_usd) filter (where status = 'SUCCESS'), 0)
      from transactions
      where (${within(ctx, 'created_at', parts.raw)}) and ${owned}
      group by 1, 2, 3`,
    ctx.sql`
      select date_trunc(${bucket}, hour, 'UTC'), referral_code, referral_owner_id, swaps, succeeded, finished,
             volume_usd, fees_usd
      from affiliate_hourly where (${within(ctx, 'hour', parts.hours)}) and ${owned}`,
    ctx.sql`
      select day, referral_code, referral_owner_id, swaps, succeeded, finished, volume_usd, fees_usd
      from affiliate_daily where (${within(ctx, 'day', parts.days ? [parts.days] : [])}) and ${owned}`,
    ctx.sql`
      select date_trunc(${bucket}, hour, 'UTC'), referral_code, referral_owner_id, swaps,
             case when status = 'SUCCESS' then swaps else 0 end, case when status <> 'PENDING' then swaps else 0 end,
             volume_usd, fees_usd
      from swap_rollup_deltas
      where hour >= ${parts.rolledFrom ? iso(parts.rolledFrom) : 'infinity'}::timestamptz
        and hour < ${iso(rolledTo)}::timestamptz and referral_code is not null and ${owned}`,
  ].reduce((a, b) => ctx.sql`${a} union all ${b}`);
  // A swap counts for a code only when it was credited at lock or execute, to the code's owner then: a
  // code registered after strangers used it inherits none of their swaps. Swaps keep the code as given.
  return ctx.sql<CodeSums[]>`
    select rc.code, s.bucket::text as bucket, sum(s.swaps)::text as swaps, sum(s.succeeded)::text as succeeded,
           sum(s.finished)::text as finished, sum(s.volume_usd)::text as "volumeUsd", sum(s.fees_usd)::text as "feesUsd"
    from (${sources}) as s (bucket, referral_code, referral_owner_id, swaps, succeeded, finished, volume_usd, fees_usd)
    join referral_codes rc on s.referral_owner_id = rc.owner_id and lower(s.referral_code) = lower(rc.code)
    group by grouping sets ((rc.code), (s.bucket), ())`;
}

/** Attribution for the codes in scope over a range: totals, a series, each code, and the latest swaps. */
export async function affiliateOverview(ctx: AppContext, viewer: Viewer, input: AffiliateStatsInput, now = new Date()) {
  const { ownerId } = affiliateScope(viewer, input.ownerId);
  const { hours, bucket } = RANGE_WINDOWS[input.range];
  const since = new Date(now.getTime() - hours * 3600_000);
  const inScope = ownerId === null ? ctx.sql`true` : ctx.sql`rc.owner_id = ${ownerId}`;
  const credited =
    ownerId === null ? ctx.sql`t.referral_owner_id is not null` : ctx.sql`t.referral_owner_id = ${ownerId}`;

  const perPage = input.codesPerPage ?? OVERVIEW_CODES_PER_PAGE;
  const after = input.codesCursor ? decodeCursor(input.codesCursor, 'codesCursor') : undefined;
  const afterCursor = after
    ? ctx.sql`(rc.created_at, rc.code) < (${after.createdAt}::timestamptz, ${after.id})`
    : ctx.sql`true`;
  const [codeRows, [codeCount], sums, recentIds] = await Promise.all([
    ctx.sql<
      {
        code: string;
        label: string | null;
        active: boolean;
        createdAt: string;
        createdText: string;
        ownerId: string;
        ownerEmail: string | null;
      }[]
    >`
      select rc.code, rc.label, rc.active, rc.created_at as "createdAt", rc.created_at::text as "createdText",
             rc.owner_id as "ownerId", u.email as "ownerEmail"
      from referral_codes rc left join auth_user u on u.id = rc.owner_id
      where ${inScope} and ${afterCursor}
      order by rc.created_at desc, rc.code desc
      limit ${perPage + 1}`,
    ctx.sql<{ n: number }[]>`select count(*)::int as n from referral_codes rc where ${inScope}`,
    creditedSums(ctx, ownerId, bucket, since, now),
    ctx.sql<{ id: string }[]>`
      select t.id from transactions t
      join referral_codes rc on t.referral_owner_id = rc.owner_id and lower(t.referral_code) = lower(rc.code)
      where ${credited} and ${inScope}
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

  const empty = () => ({ swaps: 0, succeeded: 0, finished: 0, volumeUsd: 0, feesUsd: 0 });
  const add = (into: ReturnType<typeof empty>, s: CodeSums) => {
    into.swaps += Number(s.swaps);
    into.succeeded += Number(s.succeeded);
    into.finished += Number(s.finished);
    into.volumeUsd += Number(s.volumeUsd);
    into.feesUsd += Number(s.feesUsd);
  };
  const codes = codeRows.slice(0, perPage);
  const last = codeRows.length > codes.length ? codes.at(-1) : undefined;
  const byCode = new Map(codes.map((c) => [c.code, empty()]));
  const totals = empty();
  const series = new Map(bucketStarts(since, now, bucket).map((b) => [b.getTime(), { bucket: b, ...empty() }]));
  for (const s of sums) {
    if (s.code !== null) add(totals, s);
    const code = s.code === null ? undefined : byCode.get(s.code);
    if (code) add(code, s);
    const point = s.bucket === null ? undefined : series.get(toDate(s.bucket).getTime());
    if (point) add(point, s);
  }

  return {
    ownerId,
    range: input.range,
    bucket,
    totals: {
      codes: codeCount?.n ?? 0,
      swaps: totals.swaps,
      volumeUsd: totals.volumeUsd,
      feesUsd: totals.feesUsd,
      successRate: finishedRate(totals.succeeded, totals.finished),
    },
    codes: codes.map((c) => {
      const sum = byCode.get(c.code) ?? empty();
      return {
        code: c.code,
        label: c.label,
        active: c.active,
        createdAt: toDate(c.createdAt),
        ownerId: c.ownerId,
        ownerEmail: c.ownerEmail,
        swaps: sum.swaps,
        volumeUsd: sum.volumeUsd,
        feesUsd: sum.feesUsd,
        successRate: finishedRate(sum.succeeded, sum.finished),
      };
    }),
    codesNextCursor: last ? encodeCursor({ createdAt: last.createdText, id: last.code }) : null,
    series: [...series.values()].map(({ bucket: b, swaps, volumeUsd, feesUsd }) => ({
      bucket: b,
      swaps,
      volumeUsd,
      feesUsd,
    })),
    recent: recent.map(presentTransactionSummary),
  };
}
export type AffiliateOverview = Awaited<ReturnType<typeof affiliateOverview>>;
