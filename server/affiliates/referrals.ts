import { and, eq, sql } from 'drizzle-orm';
import { referralCodes } from '../../drizzle/schema';
import type { AppContext } from '../context';

/** A referral as it is stored on a lock or transaction: the registered code and its owner then. */
export interface Referral {
  code: string;
  ownerId: string;
}

/**
 * The registered, active code a client's `referralCode` names (matched ignoring case, as codes are
 * unique that way), or null. An unknown code is not an error: the swap goes ahead, attributed to nobody.
 */
export async function resolveReferral(ctx: AppContext, code: string | undefined): Promise<Referral | null> {
  if (!code) return null;
  const [row] = await ctx.db
    .select({ code: referralCodes.code, ownerId: referralCodes.ownerId })
    .from(referralCodes)
    .where(and(eq(sql`lower(${referralCodes.code})`, code.trim().toLowerCase()), eq(referralCodes.active, true)))
    .limit(1);
  return row ?? null;
}

/** Public: whether a code would attribute a swap now, for the swap page's "Referred by". */
export async function referralStatus(ctx: AppContext, code: string) {
  const referral = await resolveReferral(ctx, code);
  return { code: referral?.code ?? code, active: !!referral };
}
