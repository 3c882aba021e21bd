import type postgres from 'postgres';
import type { Config } from '../config';
import type { AppContext } from '../context';
import { AppError } from '../errors';
import { perKey } from '../per-key';
import { addRateLimitHeaders } from '../ratelimit/limiter';
import { slotsPerKey } from '../slots';

/** Runs one statement of a read, given as text with numbered parameters. */
export type RunStatement = <T extends readonly object[]>(query: string, params: string[]) => Promise<T>;

/** Who is reading, and the request deadline's signal: when it fires the read's statements are cancelled. */
export interface ReadGuard {
  client: string;
  signal: AbortSignal;
}

/** Places for public reads in one process, and the reads each client address has running. */
interface Gates {
  running: number;
  waiting: Set<() => void>;
  takeClientSlot: ReturnType<typeof slotsPerKey>;
}

const gatesOf = perKey((_config: Config): Gates => ({ running: 0, waiting: new Set(), takeClientSlot: slotsPerKey() }));

const QUERY_CANCELED = '57014';

function tooManyAtOnce(limit: number): AppError {
  const headers: Record<string, string> = {};
  addRateLimitHeaders(headers, {
    allowed: false,
    limit,
    remaining: 0,
    resetSeconds: 1,
    routeClass: 'transactions',
    windowSeconds: 1,
  });
  return new AppError(
    'RATE_LIMITED',
    `At most ${limit} history reads at once per client; retry when one has answered`,
    {
      headers,
    },
  );
}

const noPlace = () =>
  new AppError('SERVICE_UNAVAILABLE', 'History reads are busy; retry shortly', { headers: { 'retry-after': '1' } });

const tookTooLong = (cause: unknown) =>
  new AppError(
    'SERVICE_UNAVAILABLE',
    'This history read took too long; narrow it (addresses, cursor) or retry shortly',
    {
      cause,
    },
  );

/** A place among `max`, or false once `waitMs` has passed (or the deadline fired) without one. */
function enter(gates: Gates, max: number, waitMs: number, signal: AbortSignal): Promise<boolean> | boolean {
  if (gates.running < max) {
    gates.running++;
    return true;
  }
  return new Promise((resolve) => {
    const done = (entered: boolean) => {
      clearTimeout(timer);
      gates.waiting.delete(admit);
      signal.removeEventListener('abort', refuse);
      resolve(entered);
    };
    const admit = () => done(true);
    const refuse = () => done(false);
    const timer = setTimeout(refuse, waitMs);
    gates.waiting.add(admit);
    signal.addEventListener('abort', refuse, { once: true });
  });
}

/** Hands the place to the oldest waiter, else frees it. */
function leave(gates: Gates): void {
  const [next] = gates.waiting;
  if (next) next();
  else gates.running--;
}

/**
 * Runs `read` in a transaction of its own under `set local statement_timeout`, its statements cancelled
 * the moment `signal` fires. 503 when no connection came within `waitMs` (the transaction, if it
 * starts later, ends at once).
 */
async function timedTransaction<T>(
  sql: postgres.Sql,
  { statementTimeoutMs, waitMs }: Config['publicReads'],
  signal: AbortSignal,
  read: (run: RunStatement) => Promise<T>,
): Promise<T> {
  let gaveUp = false;
  let connected = false;
  let timer: NodeJS.Timeout | undefined;
  const noConnection = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      if (connected) return;
      gaveUp = true;
      reject(noPlace());
    }, waitMs);
  });
  noConnection.catch(() => {});
  const work = sql.begin(async (tx) => {
    connected = true;
    clearTimeout(timer);
    if (gaveUp || signal.aborted) throw noPlace();
    // JIT compiles a plan whose estimate is high, as a generic plan's can be: seconds for a read of a few rows.
    await tx.unsafe(`set local statement_timeout = ${Math.floor(statementTimeoutMs)}; set local jit = off`);
    // One statement at a time: postgres.js cancels only the statement a connection is running, and a
    // cancelled one queued behind it would leave the transaction open.
    let current: { cancel(): void } | undefined;
    let previous: Promise<unknown> = Promise.resolve();
    const cancel = () => current?.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    const run: RunStatement = (query, params) => {
      const next = previous.then(() => {
        if (signal.aborted) throw signal.reason;
        const pending = tx.unsafe(query, params, { prepare: true });
        current = pending;
        return pending as unknown as never;
      });
      previous = next.catch(() => {});
      return next;
    };
    try {
      return await read(run);
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  });
  work.catch(() => {});
  try {
    return (await Promise.race([work, noConnection])) as T;
  } catch (error) {
    if ((error as { code?: unknown })?.code === QUERY_CANCELED) throw tookTooLong(error);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A public read no client can make hold the database: at most `perClient` running per client address
 * (429 beyond), at most `maxConcurrent` in the process (waiting at most `waitMs` for a place and a
 * connection, else 503), each statement under a timeout shorter than the request deadline, and all
 * of them cancelled when the request is answered at its deadline.
 */
export async function boundedRead<T>(
  ctx: AppContext,
  guard: ReadGuard,
  read: (run: RunStatement) => Promise<T>,
): Promise<T> {
  const limits = ctx.config.publicReads;
  const gates = gatesOf(ctx.config);
  const release = gates.takeClientSlot(guard.client, limits.perClient);
  if (!release) throw tooManyAtOnce(limits.perClient);
  try {
    if (!(await enter(gates, limits.maxConcurrent, limits.waitMs, guard.signal))) throw noPlace();
    try {
      return await timedTransaction(ctx.sql, limits, guard.signal, read);
    } finally {
      leave(gates);
    }
  } finally {
    release();
  }
}
