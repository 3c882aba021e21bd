import type { AppContext } from '../context';
import { rolledUntil, setRolledUntil } from '../rollups/watermarks';
import { enqueue } from '../tracking/queues';

/** One run tells of at most this many swaps turning late; the rest wait for the next run. */
const BATCH = 1000;
/** A first run looks back this far, so a deploy does not announce every swap that was ever late. */
const FIRST_LOOK_BACK_MS = 3600_000;

/**
 * Hands a `transaction.late` fan-out to the worker for every pending swap that turned late since the
 * last run (its `late_at` passed), in `late_at` order through the late index, and moves the watermark.
 * A swap already told of is not told again: the watermark has passed it, and the fan-out sends a state
 * to an endpoint once.
 */
export async function notifyLateSwaps(
  ctx: Pick<AppContext, 'sql' | 'webhookQueue' | 'log'>,
  now = new Date(),
  batch = BATCH,
) {
  if (!ctx.webhookQueue) return { late: 0 };
  const from = (await rolledUntil(ctx, 'late_swaps')) ?? new Date(now.getTime() - FIRST_LOOK_BACK_MS);
  const rows = await ctx.sql<{ id: string; late_at: Date | string }[]>`
    select id, late_at from transactions
    where status = 'PENDING' and late_at is not null
      and late_at > ${from.toISOString()}::timestamptz and late_at <= ${now.toISOString()}::timestamptz
    order by late_at, id limit ${batch}`;
  // A full batch stops at a late_at; swaps past the batch that share it would fall behind the watermark,
  // so those in the batch wait for the next run with them (unless the whole batch shares it).
  const at = (row: (typeof rows)[number] | undefined) => (row ? new Date(row.late_at).getTime() : undefined);
  const last = at(rows.at(-1));
  const full = rows.length === batch && last !== undefined;
  const told = full && at(rows[0]) !== last ? rows.filter((row) => at(row) !== last) : rows;
  for (const { id } of told) {
    await enqueue(ctx.webhookQueue, 'webhooks.fan-out', { transactionId: id, created: false, late: true });
  }
  const reached = at(told.at(-1));
  await setRolledUntil(ctx.sql, 'late_swaps', full && reached !== undefined ? new Date(reached) : now);
  return { late: told.length };
}
