import { and, eq, sql } from 'drizzle-orm';
import { referralCodes } from '../../drizzle/schema';
import type { AppContext } from '../context';

/**
 * A referral as a lock or transaction keeps it: the code exactly as the client gave it (trimmed), and
 * the owner it credits. The owner is set only when the code was registered and active at that moment,
 * so a code registered later never gains earlier swaps.
 */
export interface Referral {
  code: string;
  ownerId: string | null;
}

/** The registered, active code a client's code names (matched ignoring case, as codes are unique that way), or null. */
async function activeCode(ctx: AppContext, code: string) {
  const [row] = await ctx.db
    .select({ code: referralCodes.code, ownerId: referralCodes.ownerId })
    .from(referralCodes)
    .where(and(eq(sql`lower(${referralCodes.code})`, code.toLowerCase()), eq(referralCodes.active, true)))
    .limit(1);
  return row ?? null;
}

/** The code as given, credited to its owner when it is registered and active now. Unknown codes never fail a swap. */
export async function referralAsGiven(ctx: AppContext, given: string | undefined): Promise<Referral | null> {
  const code = given?.trim();
  if (!code) return null;
  const registered = await activeCode(ctx, code);
  return { code, ownerId: registered?.ownerId ?? null };
}

/** Public: whether a code would attribute a swap now, for the swap page's "Referred by". */
export async function referralStatus(ctx: AppContext, code: string) {
  const registered = await activeCode(ctx, code.trim());
  return { code: registered?.code ?? code, active: !!registered };
}
