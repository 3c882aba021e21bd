import 'server-only';
import type { AppContext } from './context';
import { perKey } from './per-key';
import { type ReadTarget, readWithFallback } from './reads';

/** One context per read target, made once: its `db` and `sql` are the target's, the rest is the app's. */
const contextsOn = perKey((_ctx: AppContext) => new Map<ReadTarget, AppContext>());

function contextOn(ctx: AppContext, target: ReadTarget): AppContext {
  if (!target.replica) return ctx;
  const contexts = contextsOn(ctx);
  let on = contexts.get(target);
  if (!on) {
    on = { ...ctx, db: target.db, sql: target.sql };
    contexts.set(target, on);
  }
  return on;
}

/**
 * Runs a read-only domain function where `ctx.reads` sends reads now: the replica once it has replayed
 * every acknowledged change, else the primary; a replica that fails mid-read is read again on the
 * primary. Without a replica, `read(ctx)` as it is.
 */
export async function onReadTarget<T>(ctx: AppContext, read: (ctx: AppContext) => Promise<T>): Promise<T> {
  if (!ctx.reads.replicated) return read(ctx);
  const { result } = await readWithFallback(ctx.reads, (target) => read(contextOn(ctx, target)));
  return result;
}
