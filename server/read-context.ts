import 'server-only';
import type { Viewer } from './auth/roles';
import type { AppContext } from './context';
import { perKey } from './per-key';
import { type ClientRequest, clientIdentity } from './ratelimit/client';
import { type ReadTarget, readFences, readWithFallback } from './reads';

/** What a public API client's reads wait for on a replica: its own locks, executes and tracks. */
export const clientFences = (ctx: AppContext, request: ClientRequest) => [
  readFences.client(clientIdentity(request, ctx.config)),
];

/** What a dashboard session's reads wait for on a replica: its own mutations. */
export const sessionFences = (viewer: Viewer) => [readFences.session(viewer.sessionId)];

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
 * every acknowledged change under `fences` (`readFences`: the reader's own), else the primary; a
 * replica that fails mid-read is read again on the primary. Without a replica, `read(ctx)` as it is.
 */
export async function onReadTarget<T>(
  ctx: AppContext,
  read: (ctx: AppContext) => Promise<T>,
  fences: readonly string[] = [],
): Promise<T> {
  if (!ctx.reads.replicated) return read(ctx);
  const { result } = await readWithFallback(ctx.reads, (target) => read(contextOn(ctx, target)), { fences });
  return result;
}
