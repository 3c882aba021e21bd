import { eq, sql } from 'drizzle-orm';
import { referralCodes } from '../../drizzle/schema';
import { NO_ORIGIN, type RequestOrigin, recordAudit } from '../audit/record';
import type { Viewer } from '../auth/roles';
import type { AppContext } from '../context';
import { AppError, notFound } from '../errors';
import type { CreateReferralCodeInput } from '../schemas/affiliates';

/** Whose codes a viewer may see: an affiliate only their own, an admin anyone's (or everyone's). */
export function affiliateScope(viewer: Viewer, requestedOwnerId?: string): { ownerId: string | null } {
  if (viewer.role === 'admin') return { ownerId: requestedOwnerId ?? null };
  // Someone else's id reads as unknown rather than forbidden, so ids cannot be probed.
  if (requestedOwnerId && requestedOwnerId !== viewer.userId) throw notFound('Affiliate', 'ownerId');
  return { ownerId: viewer.userId };
}

const UNIQUE_VIOLATION = '23505';

const tooMany = (max: number) =>
  new AppError('VALIDATION_ERROR', `An affiliate may own at most ${max} referral codes; use one of them`, {
    field: 'code',
    status: 409,
    retryable: false,
  });

/**
 * Codes are unique ignoring case, so `ACME` and `acme` can never belong to two people; one owner has at
 * most MAX_REFERRAL_CODES_PER_AFFILIATE, counted under a per-owner lock so concurrent creates cannot pass it.
 */
export async function createReferralCode(
  ctx: AppContext,
  owner: Viewer,
  input: CreateReferralCodeInput,
  origin: RequestOrigin = NO_ORIGIN,
) {
  const ownerId = owner.userId;
  const taken = () =>
    new AppError('VALIDATION_ERROR', `The referral code "${input.code}" is already taken`, {
      field: 'code',
      status: 409,
      retryable: false,
    });
  const max = ctx.config.maxReferralCodesPerAffiliate;
  try {
    return await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`referral-codes:${ownerId}`}))`);
      // Whether a max-th code exists: at most `max` index entries read, however many codes the owner has.
      const [atCap] = await tx
        .select({ code: referralCodes.code })
        .from(referralCodes)
        .where(eq(referralCodes.ownerId, ownerId))
        .limit(1)
        .offset(max - 1);
      if (atCap) throw tooMany(max);
      const [existing] = await tx
        .select({ code: referralCodes.code })
        .from(referralCodes)
        .where(eq(sql`lower(${referralCodes.code})`, input.code.toLowerCase()))
        .limit(1);
      if (existing) throw taken();
      const [row] = await tx
        .insert(referralCodes)
        .values({ code: input.code, ownerId, label: input.label || null })
        .returning();
      if (!row) throw new AppError('INTERNAL_ERROR', 'Referral code not stored');
      await recordAudit(tx, {
        action: 'referral_code.create',
        actor: owner,
        origin,
        targetId: row.code,
        after: { code: row.code, label: row.label, ownerId },
      });
      return { code: row.code, label: row.label, active: row.active, createdAt: row.createdAt };
    });
  } catch (error) {
    if ((error as { code?: unknown })?.code === UNIQUE_VIOLATION) throw taken();
    const cause = (error as { cause?: { code?: unknown } })?.cause;
    if (cause?.code === UNIQUE_VIOLATION) throw taken();
    throw error;
  }
}

/** For the admin's affiliate picker: every user who is an affiliate or owns a code. */
export async function listAffiliates(ctx: AppContext) {
  return ctx.sql<{ id: string; name: string; email: string; role: string; codes: number }[]>`
    select u.id, u.name, u.email, u.role, count(rc.code)::int as codes
    from auth_user u left join referral_codes rc on rc.owner_id = u.id
    where u.role = 'affiliate' or rc.code is not null
    group by u.id
    order by u.email`;
}
