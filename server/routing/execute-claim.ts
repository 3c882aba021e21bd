import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { locks } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { AppError, notFound } from '../errors';
import { perKey } from '../per-key';

export type LockRow = typeof locks.$inferSelect;
/** A lock this execute holds: `claimedAt` is its fencing token (see `CLAIM_SQL`). */
export type ClaimedLock = LockRow & { claimedAt: Date };

const lockColumns = Object.entries(getTableColumns(locks));

/**
 * One conditional UPDATE: exactly one caller wins a live lock, however many race for it. The same
 * statement tells a loser what it lost to (no such lock, expired, used, or held by another execute), so
 * losing costs one round trip (none in the process that holds the claim, see `claimSharedInProcess`).
 * Sent on the driver directly: a loser (19 of 20 racers on a contested lock) reads four columns
 * instead of paying for drizzle mapping a whole all-null lock row.
 *
 * The claim's time is its fencing token: the holder records the swap, or hands the lock back, only
 * while `claimed_at` is still the time it claimed at. Whole milliseconds, so the token survives the
 * round trip through a JS Date exactly; a later claim can never carry the same time, since it comes
 * after the holder's own hand-back or after the sweep found this claim older than
 * EXECUTE_CLAIM_TIMEOUT_MS.
 *
 * The claim commits without waiting for its WAL flush (`synchronous_commit` off for this statement's
 * transaction alone): it only orders racers, which see it at once all the same. A claim a database
 * crash forgets is the case the sweep already handles (the lock is free again, and the holder's record
 * then misses its fencing token and records nothing); the swap's own record still commits durably
 * before anyone is answered. The flush saved is one of the two the winner would otherwise wait for.
 */
const CLAIM_SQL = `with "claimed" as (update "locks"
    set "state" = 'executing', "claimed_at" = date_trunc('milliseconds', clock_timestamp()), "updated_at" = now()
    where "id" = $1 and "state" = 'locked' and "expires_at" > now()
    returning *)
  select "locks"."id" as "found", "claimed"."id" is not null as "won", "locks"."state" as "held_state",
    "locks"."expires_at" <= now() as "held_expired", "claimed".*
  from "locks" left join "claimed" on true, (select set_config('synchronous_commit', 'off', true)) as "async_commit"
  where "locks"."id" = $1`;

/** The winner's row, decoded column by column as drizzle would. */
function lockRow(raw: Record<string, unknown>): LockRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of lockColumns) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as LockRow;
}

/** Why a claim was lost: the lock as the losing statement saw it. */
type Held = 'missing' | 'expired' | 'used' | 'executing';

/** What a claim learnt: the lock it won (with its fencing token in `claimedAt`), else why not. */
type Claim = { lock: ClaimedLock; held?: undefined } | { lock: null; held: Held };

async function claimLock(ctx: AppContext, lockId: string): Promise<Claim> {
  const [found] = await ctx.sql.unsafe(CLAIM_SQL, [lockId], { prepare: true });
  if (!found) return { lock: null, held: 'missing' };
  if (found.won) return { lock: lockRow(found) as ClaimedLock };
  // 'locked' and live as the statement's snapshot saw it, lost all the same: a concurrent claim committed first.
  const held: Held =
    found.held_state === 'locked' && found.held_expired
      ? 'expired'
      : found.held_state === 'used'
        ? 'used'
        : 'executing';
  return { lock: null, held };
}

const LOST_CLAIM: Record<Exclude<Held, 'missing'>, string> = {
  expired: 'This lock has expired; request a new quote and lock',
  used: 'This lock was already executed; request a new quote and lock',
  executing:
    'This lock is being executed by another request; it is handed back if that execute fails, so retry shortly or request a new quote and lock',
};

function lostClaim(held: Held): AppError {
  if (held === 'missing') return notFound('Lock', 'lockId');
  return new AppError('QUOTE_EXPIRED', LOST_CLAIM[held], { field: 'lockId' });
}

/** Per process: the claim of each lock it is asking for or holds, until the swap is recorded or the lock handed back. */
const claimsInProcess = perKey((_ctx: AppContext) => new Map<string, Promise<Claim>>());

/**
 * An execute of a lock this process is already claiming, or holds, shares that claim instead of
 * asking Postgres again: while this process holds it the lock is 'executing' in the database, where
 * every other claim would lose too, and a lock that does not exist never will. Only a shared claim
 * that lost to another process is not taken as the answer (that process may hand the lock back), so
 * sharing can only refuse what the database would refuse; which caller wins stays the database's call.
 */
export async function claimSharedInProcess<T>(
  ctx: AppContext,
  lockId: string,
  use: (lock: ClaimedLock) => Promise<T>,
): Promise<T> {
  const claims = claimsInProcess(ctx);
  const pending = claims.get(lockId);
  // Awaited only when there is one: a caller that waited a tick for nothing would miss a claim started meanwhile.
  const shared = pending && (await pending.catch(() => undefined));
  if (shared?.lock) throw lostClaim('executing');
  if (shared?.held === 'missing') throw lostClaim('missing');
  const claim = claimLock(ctx, lockId);
  const mine = !claims.has(lockId);
  if (mine) claims.set(lockId, claim);
  try {
    const won = await claim;
    if (!won.lock) throw lostClaim(won.held);
    return await use(won.lock);
  } finally {
    if (mine) claims.delete(lockId);
  }
}

/**
 * A provider hiccup never burns a lock: the claim is handed back while the lock is still valid. Only
 * this execute's own claim: once the sweep has handed it back, the lock may be someone else's.
 */
export async function releaseLock(ctx: AppContext, lock: ClaimedLock) {
  await ctx.db
    .update(locks)
    .set({ state: 'locked', claimedAt: null, updatedAt: sql`now()` })
    .where(and(eq(locks.id, lock.id), eq(locks.state, 'executing'), eq(locks.claimedAt, lock.claimedAt)));
}
