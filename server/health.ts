import type { AppContext } from './context';

interface Check {
  ok: boolean;
  latencyMs: number;
  error?: string;
}

export interface Readiness {
  ok: boolean;
  checks: Record<'postgres' | 'redis', Check> & {
    /**
     * With DATABASE_READ_URL: whether the replica takes reads (reachable, and within
     * DATABASE_READ_MAX_LAG_MS). It does not decide `ok`: past the threshold the primary serves every
     * read, so failing the process would turn a lagging replica into an outage of the whole API.
     */
    replica?: Check & { lagSeconds: number | null };
  };
}

async function timed(work: () => Promise<unknown>, timeoutMs: number) {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      work(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { ok: true, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    const timedOut = error instanceof Error && error.message.startsWith('no answer');
    return {
      ok: false,
      latencyMs: Math.round(performance.now() - started),
      error: timedOut ? 'timeout' : 'unreachable',
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Each client's wait for its connection: probes while it reconnects share one, not a listener pair each. */
const connecting = new WeakMap<AppContext['redis'], Promise<void>>();

function connected(redis: AppContext['redis']): Promise<void> {
  let waiting = connecting.get(redis);
  if (!waiting) {
    waiting = new Promise<void>((resolve, reject) => {
      const onReady = () => {
        redis.off('error', onError);
        resolve();
      };
      const onError = (error: unknown) => {
        redis.off('ready', onReady);
        reject(error);
      };
      redis.once('ready', onReady);
      redis.once('error', onError);
    }).finally(() => connecting.delete(redis));
    connecting.set(redis, waiting);
  }
  return waiting;
}

/** A client still connecting (a process's first probe) is waited for rather than reported down. */
function redisPing(redis: AppContext['redis']): Promise<unknown> {
  if (redis.status === 'ready') return redis.ping();
  return connected(redis).then(() => redis.ping());
}

/** Postgres and Redis, each answered or given up on within the dependency timeout. */
export async function checkReadiness(ctx: AppContext): Promise<Readiness> {
  const timeout = ctx.config.dependencyTimeoutMs;
  const [postgres, redis] = await Promise.all([
    timed(() => ctx.sql`select 1`, timeout),
    timed(() => redisPing(ctx.redis), timeout),
  ]);
  const state = ctx.reads.replicaState();
  const replica = state && {
    ok: state.serving,
    latencyMs: 0,
    lagSeconds: state.lagMs === null ? null : state.lagMs / 1000,
    ...(state.serving ? {} : { error: state.reachable ? 'lagging' : 'unreachable' }),
  };
  return { ok: postgres.ok && redis.ok, checks: { postgres, redis, ...(replica && { replica }) } };
}
