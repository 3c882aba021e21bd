import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../log';
import { type Reads, readFences } from '../reads';
import { createSubscriberRedis, type RedisTarget } from '../redis';
import { enqueue } from '../tracking/queues';

/**
 * Redis pub/sub rather than Postgres LISTEN/NOTIFY: every web process already holds Redis, a
 * subscriber costs one Redis connection instead of a pinned Postgres connection out of a small pool,
 * and the lean server and Next share it unchanged. A message is only a wake-up call carrying the
 * transaction id: a stream re-reads the row from Postgres, so a lost message costs latency, never
 * a state (streams also re-read at every heartbeat and whenever the subscriber reconnects).
 */
const channelOf = (prefix: string) => `${prefix}:transaction-changes`;

/** What telling of a change needs of the app context (named here, since the context builds the change feed). */
interface ChangeNotifier {
  redis: Redis;
  config: { redisPrefix: string };
  log: Logger;
  /** Absent where nothing sends webhooks. */
  webhookQueue?: Queue;
  /** With a replica, each change raises its swap's fence, which reads of that swap wait behind. */
  reads?: Pick<Reads, 'fence'>;
}

/**
 * Everything that follows a committed change of a transaction, called once from every place that
 * writes one: reads from a replica wait until it has replayed the change, watching streams are woken, and a webhook fan-out is handed to the worker (which sends
 * a state to an endpoint at most once, so a change no one can see costs nothing). Never throws: a
 * watcher catches up at its next re-read, and a fan-out that could not be enqueued is logged.
 */
export async function afterTransactionChange(
  ctx: ChangeNotifier,
  transactionId: string,
  { created = false }: { created?: boolean } = {},
): Promise<void> {
  await Promise.all([
    fenceTransactionReads(ctx, transactionId),
    announceTransactionChange(ctx, transactionId, created),
  ]);
}

/** The part of `afterTransactionChange` an answer must wait for: reads of the swap that follow it see the change. */
export async function fenceTransactionReads(ctx: ChangeNotifier, transactionId: string): Promise<void> {
  await ctx.reads?.fence([readFences.transaction(transactionId)]);
}

/** The part no answer needs to wait for (never throws): watchers woken, the webhook fan-out handed to the worker. */
export async function announceTransactionChange(
  ctx: ChangeNotifier,
  transactionId: string,
  created = false,
): Promise<void> {
  await Promise.all([publishTransactionChange(ctx, transactionId), enqueueWebhookFanOut(ctx, transactionId, created)]);
}

async function publishTransactionChange(ctx: ChangeNotifier, transactionId: string): Promise<void> {
  try {
    await ctx.redis.publish(channelOf(ctx.config.redisPrefix), transactionId);
  } catch (error) {
    ctx.log.warn({ err: error, transactionId }, 'transaction change not published; watchers catch up later');
  }
}

/** The caller never waits on endpoints: the worker matches them and sends. */
async function enqueueWebhookFanOut(ctx: ChangeNotifier, transactionId: string, created: boolean): Promise<void> {
  if (!ctx.webhookQueue) return;
  await enqueue(ctx.webhookQueue, 'webhooks.fan-out', { transactionId, created }).catch((error) => {
    ctx.log.warn({ err: error, transactionId }, 'webhook fan-out not enqueued');
  });
}

export type ChangeListener = () => void;

export interface ChangeFeed {
  /** Calls `listener` on each change to the transaction; resolves once the subscription is live. */
  watch(transactionId: string, listener: ChangeListener): Promise<() => void>;
  close(): void;
}

/** One subscriber connection per process, fanned out to the streams of this process. */
export function createChangeFeed(
  target: RedisTarget,
  prefix: string,
  log: Logger,
  connectTimeoutMs: number,
): ChangeFeed {
  const listeners = new Map<string, Set<ChangeListener>>();
  let subscriber: Redis | undefined;
  let subscribed: Promise<unknown> | undefined;

  const notifyAll = () => {
    for (const listener of [...listeners.values()].flatMap((set) => [...set])) listener();
  };

  function connect(): Promise<unknown> {
    if (subscribed) return subscribed;
    // Commands wait for the connection (and ioredis resubscribes after a reconnect) instead of failing.
    const redis = createSubscriberRedis(target, connectTimeoutMs);
    subscriber = redis;
    redis.on('message', (_channel: string, transactionId: string) => {
      for (const listener of [...(listeners.get(transactionId) ?? [])]) listener();
    });
    // Changes published while the connection was down were never delivered: every stream re-reads.
    redis.on('ready', notifyAll);
    subscribed = redis.subscribe(channelOf(prefix)).catch((error) => {
      log.warn({ err: error }, 'change feed not subscribed; streams rely on their heartbeat re-reads');
    });
    return subscribed;
  }

  return {
    async watch(transactionId, listener) {
      let set = listeners.get(transactionId);
      if (!set) {
        set = new Set();
        listeners.set(transactionId, set);
      }
      set.add(listener);
      const registered = set;
      // A Redis that is down does not hold the stream: it starts, and catches up once Redis is back.
      await Promise.race([connect(), new Promise((resolve) => setTimeout(resolve, connectTimeoutMs).unref())]);
      return () => {
        registered.delete(listener);
        if (registered.size === 0 && listeners.get(transactionId) === registered) listeners.delete(transactionId);
      };
    },
    close() {
      listeners.clear();
      subscriber?.disconnect();
      subscriber = undefined;
      subscribed = undefined;
    },
  };
}
