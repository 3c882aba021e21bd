import 'server-only';
import type { Redis } from 'ioredis';
import type postgres from 'postgres';
import type { Database } from './db';

/** A handle reads run on: the primary's, or the replica's. */
export interface ReadTarget {
  db: Database;
  sql: postgres.Sql;
  replica: boolean;
}

export interface ReplicaState {
  /** The replica answered its last position check. */
  reachable: boolean;
  /** How long ago the oldest WAL it has not replayed was written on the primary; null until known. */
  lagMs: number | null;
  /** Reachable and within DATABASE_READ_MAX_LAG_MS: it takes reads. */
  serving: boolean;
}

/**
 * Whose acknowledged changes a read must see: a swap's (its status), a client's (by the rate
 * limiter's identity: its history after its own lock, execute or track), a dashboard session's (its
 * pages after its own mutations). One fence per scope, so a trickle of anyone's writes holds back only
 * reads of what they wrote, never every reader.
 */
export const readFences = {
  transaction: (id: string) => `tx:${id}`,
  client: (clientKey: string) => `client:${clientKey}`,
  session: (sessionId: string) => `session:${sessionId}`,
};

/**
 * Where status, history, dashboard and stream catch-up reads go. Without a replica: the primary,
 * with no I/O. With one, read-your-writes holds per scope (`readFences`): each acknowledged change
 * raises its scopes' fences in Redis to the primary's WAL position after it, and a read goes to the
 * replica only once the replica has replayed up to the fences it names. A replica that is down, or
 * lags past the threshold, or a fence that cannot be read: the primary serves.
 */
export interface Reads {
  primary: ReadTarget;
  replicated: boolean;
  /** Where a read that must see every acknowledged change under `fences` goes now. */
  target(fences: readonly string[]): Promise<ReadTarget>;
  /** Called after an acknowledged change, before its answer goes out: raises each of `fences`. */
  fence(fences: readonly string[]): Promise<void>;
  /** A replay position the replica had reached before now (0 when unknown). */
  replayedPosition(): number;
  /** Whether a replica read made after reaching `position` saw every change under `fences`. */
  covers(fences: readonly string[], position: number): Promise<boolean>;
  replicaState(): ReplicaState | undefined;
  close(): void;
}

const POSITION_CHECK_MS = 250;

/** A WAL position (`16/B374D848`) as a number: exact below 2^53 bytes of WAL. */
export const lsnValue = (lsn: string | null | undefined) => {
  if (!lsn) return 0;
  const [high = '0', low = '0'] = lsn.split('/');
  return Number.parseInt(high, 16) * 2 ** 32 + Number.parseInt(low, 16);
};

/** Raises the fence, never lowers it: concurrent writers may arrive out of WAL order. */
const RAISE_FENCE = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > current then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1`;

export function primaryReads(primary: Omit<ReadTarget, 'replica'>): Reads {
  const target = { ...primary, replica: false };
  return {
    primary: target,
    replicated: false,
    target: async () => target,
    fence: async () => {},
    replayedPosition: () => 0,
    covers: async () => true,
    replicaState: () => undefined,
    close: () => {},
  };
}

export interface ReplicaOptions {
  primary: Omit<ReadTarget, 'replica'>;
  replica: Omit<ReadTarget, 'replica'>;
  redis: Redis;
  redisPrefix: string;
  maxLagMs: number;
  onError(error: unknown, what: string): void;
}

export function replicatedReads({ primary, replica, redis, redisPrefix, maxLagMs, onError }: ReplicaOptions): Reads {
  const primaryTarget: ReadTarget = { ...primary, replica: false };
  const replicaTarget: ReadTarget = { ...replica, replica: true };
  const fenceKey = (fence: string) => `${redisPrefix}:replica-fence:${fence}`;
  /** The highest of `fences` (each key alone: they need not share a Redis Cluster slot). */
  const highest = async (fences: readonly string[]) => {
    const values = await Promise.all(fences.map((fence) => redis.get(fenceKey(fence))));
    return Math.max(0, ...values.map((value) => Number(value ?? 0)));
  };
  // Once a fence has stood this long, the replica either replayed it or lags past the threshold and serves nothing.
  const fenceTtlMs = 2 * maxLagMs + 1000;
  const state: ReplicaState = { reachable: false, lagMs: null, serving: false };
  /** The primary's position as sampled, oldest first, until the replica has replayed it. */
  let written: { at: number; lsn: number }[] = [];
  let replayed = 0;
  let timer: NodeJS.Timeout | undefined;
  let checking: Promise<void> | undefined;
  let asking: Promise<number> | undefined;

  const replayPosition = async () => {
    const [row] = await replica.sql<{ lsn: string | null; recovering: boolean }[]>`
      select pg_last_wal_replay_lsn()::text as lsn, pg_is_in_recovery() as recovering`;
    // Not in recovery (promoted, or the primary itself): nothing to wait for.
    return row?.recovering === false ? Number.POSITIVE_INFINITY : lsnValue(row?.lsn);
  };

  const check = async () => {
    const at = Date.now();
    try {
      const [row] = await primary.sql<{ lsn: string }[]>`select pg_current_wal_lsn()::text as lsn`;
      written.push({ at, lsn: lsnValue(row?.lsn) });
    } catch {
      // The primary's own outage is readiness' to report; the replica's position is still worth knowing.
    }
    try {
      replayed = await replayPosition();
      state.reachable = true;
    } catch {
      state.reachable = false;
    }
    written = written.filter((sample) => sample.lsn > replayed);
    state.lagMs = state.reachable ? (written[0] ? Date.now() - written[0].at : 0) : null;
    state.serving = state.reachable && state.lagMs !== null && state.lagMs <= maxLagMs;
  };

  const tick = () => {
    checking ??= check().finally(() => {
      checking = undefined;
    });
    return checking;
  };
  /** Started by the first read or readiness check, so processes that never read from it (the worker) poll nothing. */
  const started = () => {
    if (timer) return undefined;
    timer = setInterval(tick, POSITION_CHECK_MS).unref();
    return tick();
  };

  return {
    primary: primaryTarget,
    replicated: true,
    async target(fences) {
      const first = started();
      if (first) await first;
      if (!state.serving) return primaryTarget;
      let fence: number;
      try {
        fence = await highest(fences);
      } catch {
        return primaryTarget;
      }
      if (fence <= replayed) return replicaTarget;
      // One position read in flight at a time, shared by every read waiting: whenever it was taken, replay only
      // moves forward, so a position at or past the fence proves the replica has it.
      asking ??= replayPosition().finally(() => {
        asking = undefined;
      });
      try {
        replayed = Math.max(replayed, await asking);
      } catch {
        return primaryTarget;
      }
      return fence <= replayed ? replicaTarget : primaryTarget;
    },
    async fence(fences) {
      try {
        const [row] = await primary.sql<{ lsn: string }[]>`select pg_current_wal_lsn()::text as lsn`;
        const lsn = lsnValue(row?.lsn);
        await Promise.all(fences.map((fence) => redis.eval(RAISE_FENCE, 1, fenceKey(fence), lsn, fenceTtlMs)));
      } catch (error) {
        onError(error, 'replica fence not raised: other processes may read this change from the replica late');
      }
    },
    replayedPosition: () => replayed,
    async covers(fences, position) {
      try {
        return (await highest(fences)) <= position;
      } catch {
        return false;
      }
    },
    replicaState() {
      started();
      return { ...state };
    },
    close() {
      clearInterval(timer);
    },
  };
}

export interface FallbackOptions<T> {
  /** Whose changes the read must see (`readFences`), known before it runs. */
  fences?: readonly string[];
  /** A replica result that is no answer (a row not replayed yet): read again on the primary. */
  missed?: (result: T) => boolean;
  /** Fences known only from the result (a swap found by hash): unless the replica had them, read again on the primary. */
  fencesOf?: (result: T) => readonly string[];
}

/**
 * Runs `read` where `reads` says; on the replica, a miss, a result behind its own fences or a failure
 * is read again on the primary: a row the replica has not replayed yet, or a replica that went away
 * mid-read.
 */
export async function readWithFallback<T>(
  reads: Reads,
  read: (target: ReadTarget) => Promise<T>,
  { fences = [], missed = () => false, fencesOf }: FallbackOptions<T> = {},
): Promise<{ result: T; target: ReadTarget }> {
  const target = await reads.target(fences);
  if (!target.replica) return { result: await read(target), target };
  const replayedBefore = reads.replayedPosition();
  try {
    const result = await read(target);
    const later = missed(result) ? undefined : (fencesOf?.(result) ?? []);
    if (later && (!later.length || (await reads.covers(later, replayedBefore)))) return { result, target };
  } catch {
    // Read again below.
  }
  return { result: await read(reads.primary), target: reads.primary };
}
