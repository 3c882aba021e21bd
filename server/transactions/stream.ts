import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context';
import { AppError } from '../errors';
import type { StatusQuery } from '../schemas/transactions';
import { slotsPerKey } from '../slots';
import { findTransaction, transactionStatusById } from './lookup';
import { openStreams } from './open-streams';
import { contentTag, presentStatus, type TransactionStatus } from './status';

/** How long a client waits before reconnecting after the stream ends without a final status. */
const RECONNECT_AFTER_MS = 2000;

/**
 * A stream's slot among its client's open streams, counted in Redis so the limit holds across web
 * processes; a slot a crashed process never released lapses after the maximum lifetime.
 */
const ACQUIRE_SLOT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

/**
 * Streams counted by this process alone, used while Redis cannot count them: the limit then holds
 * per process instead of not at all, as the request rate limits do with their in-memory insurance.
 */
const takeLocalSlot = slotsPerKey();

function acquireLocalSlot(clientKey: string, maxPerClient: number): () => void {
  const release = takeLocalSlot(clientKey, maxPerClient);
  if (!release) throw tooManyStreams(maxPerClient);
  return release;
}

const tooManyStreams = (maxPerClient: number) =>
  new AppError(
    'RATE_LIMITED',
    `Too many open status streams from this client (at most ${maxPerClient}); close one and retry`,
    {
      headers: { 'retry-after': '5' },
    },
  );

async function acquireSlot(ctx: AppContext, clientKey: string): Promise<() => void> {
  const { maxPerClient, maxLifetimeMs } = ctx.config.streams;
  const key = `${ctx.config.redisPrefix}:streams:${clientKey}`;
  const member = randomUUID();
  const now = Date.now();
  const lapseMs = maxLifetimeMs + 60_000;
  let granted: unknown;
  try {
    granted = await ctx.redis.eval(ACQUIRE_SLOT, 1, key, now, maxPerClient, now + lapseMs, member, lapseMs);
  } catch (error) {
    ctx.log.warn({ err: error }, 'stream limit counted by this process alone: Redis did not answer');
    return acquireLocalSlot(clientKey, maxPerClient);
  }
  if (granted !== 1) throw tooManyStreams(maxPerClient);
  return () => {
    ctx.redis.zrem(key, member).catch(() => {});
  };
}

/** The same status object under the same id in every process: ids are derived from the content. */
function eventIdOf(status: TransactionStatus): string {
  const { updatedAt: _updatedAt, ...content } = status.transaction;
  return contentTag(JSON.stringify({ ...status, transaction: content }));
}

const encoder = new TextEncoder();
const statusEvent = (id: string, status: TransactionStatus) =>
  encoder.encode(`id: ${id}\nevent: status\ndata: ${JSON.stringify(status)}\n\n`);

/**
 * The current state; null when it could not be read now (the next wake-up retries), 'gone' when deleted.
 * The catch-up may come from a replica; a wake-up's re-read comes from the primary, since the change that
 * woke it may not have reached the replica yet.
 */
async function readStatus(
  ctx: AppContext,
  transactionId: string,
  catchUp: boolean,
): Promise<TransactionStatus | null | 'gone'> {
  try {
    const row = await transactionStatusById(ctx, transactionId, { catchUp });
    return row ? await presentStatus(ctx, row) : 'gone';
  } catch (error) {
    ctx.log.warn({ err: error, transactionId }, 'stream re-read failed; retrying at the next wake-up');
    return null;
  }
}

export interface StreamRequest {
  query: StatusQuery;
  /** The id of the last event the client saw; its state is not sent again. */
  lastEventId: string | null;
  /** The client's hashed address, for the per-client limit. */
  clientKey: string;
  /**
   * The request being answered, whose signal aborts when the client goes away. Held whole, not just its
   * signal: a Fetch `Request`'s signal stops following the client once the `Request` is collected.
   */
  client: { readonly signal: AbortSignal };
}

/**
 * HEAD's answer: the stream's headers once the transaction is found, and no events. No stream opens
 * and no slot is taken, so the per-client limit is not consulted either.
 */
export async function transactionStreamHead(ctx: AppContext, query: StatusQuery): Promise<ReadableStream<Uint8Array>> {
  await findTransaction(ctx, query);
  return new ReadableStream({ start: (controller) => controller.close() });
}

/**
 * A status stream as Server-Sent Events: the current state at once, one event per change, closed
 * after the event carrying a final status (or at the maximum lifetime, to be resumed). Unknown
 * transactions and the per-client limit fail before anything is streamed. The stream is pulled:
 * while the client reads slowly, changes coalesce into the latest state instead of queueing.
 */
export async function openTransactionStream(ctx: AppContext, request: StreamRequest): Promise<ReadableStream> {
  const { id: transactionId } = await findTransaction(ctx, request.query);
  const releaseSlot = await acquireSlot(ctx, request.clientKey);
  const { heartbeatMs, maxLifetimeMs } = ctx.config.streams;

  let dirty = true;
  let ended = false;
  let lastSentId = request.lastEventId;
  let wake: (() => void) | undefined;
  let heartbeatDue = false;
  const rouse = () => {
    wake?.();
    wake = undefined;
  };
  const markDirty = () => {
    dirty = true;
    rouse();
  };
  // Subscribed before the first read: a change committed after that read always arrives as a wake-up.
  let unwatch: () => void = () => {};
  try {
    unwatch = await ctx.changes.watch(transactionId, markDirty);
  } catch (error) {
    releaseSlot();
    throw error;
  }

  const { client } = request;
  let output: ReadableStreamDefaultController<Uint8Array> | undefined;
  const end = () => {
    if (ended) return;
    ended = true;
    try {
      output?.close();
    } catch {
      // Already closed or cancelled by the client.
    }
    unwatch();
    releaseSlot();
    clearInterval(heartbeat);
    clearTimeout(lifetime);
    client.signal.removeEventListener('abort', end);
    openStreams().delete(end);
    rouse();
  };
  // A heartbeat also re-reads: a wake-up lost with a Redis outage is caught within one interval.
  const heartbeat = setInterval(() => {
    heartbeatDue = true;
    markDirty();
  }, heartbeatMs);
  const lifetime = setTimeout(end, maxLifetimeMs);
  client.signal.addEventListener('abort', end);
  openStreams().add(end);
  // A client gone while the stream was being opened aborted before anyone listened: the slot goes now.
  if (client.signal.aborted) end();

  let greeted = false;
  let caughtUp = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      output = controller;
      if (ended) controller.close();
    },
    async pull(controller) {
      while (!ended) {
        if (!greeted) {
          greeted = true;
          controller.enqueue(encoder.encode(`retry: ${RECONNECT_AFTER_MS}\n\n`));
        }
        if (dirty) {
          dirty = false;
          const read = await readStatus(ctx, transactionId, !caughtUp);
          caughtUp = true;
          if (read === 'gone') break;
          if (ended) return;
          if (read) {
            const id = eventIdOf(read);
            const fresh = id !== lastSentId;
            if (fresh) controller.enqueue(statusEvent(id, read));
            lastSentId = id;
            if (read.final) break;
            if (fresh) return;
          }
        }
        if (heartbeatDue) {
          heartbeatDue = false;
          controller.enqueue(encoder.encode(': heartbeat\n\n'));
          return;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
          if (dirty || ended) rouse();
        });
      }
      end();
    },
    cancel: end,
  });
}
