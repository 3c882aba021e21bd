import { type ConnectionOptions, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import { perKey } from '../per-key';
import { activeTracing } from '../tracing/active';
import {
  JOBS,
  type JobData,
  type JobName,
  type QueueName,
  SCHEDULE_IDS,
  SCHEDULES,
  type ScheduleId,
  trackingJobId,
} from './jobs';

export interface TrackingScheduler {
  schedule(transactionId: string, delayMs: number): Promise<void>;
  /** Polls a transaction recorded a moment ago, which has no job yet: one add, no lookup first. */
  scheduleNew(transactionId: string): Promise<void>;
  close(): Promise<void>;
}

/** Hash-tagged so every key of a queue lands on one Redis Cluster slot. */
export const bullPrefix = (redisPrefix: string) => `{${redisPrefix}}`;

export function createQueue(name: QueueName, connection: Redis | ConnectionOptions, redisPrefix: string): Queue {
  const queue = new Queue(name, {
    connection: connection as ConnectionOptions,
    prefix: bullPrefix(redisPrefix),
    // With tracing on, a job carries the trace of whoever enqueued it (bullmq-otel).
    telemetry: activeTracing()?.queueTelemetry,
    defaultJobOptions: { removeOnComplete: { count: 1000 }, removeOnFail: { count: 5000, age: 7 * 24 * 3600 } },
  });
  // Connection errors also reject the calls that hit them; callers decide what they mean.
  queue.on('error', () => {});
  return queue;
}

const sharedQueues = perKey((_redis: Redis) => new Map<string, Queue>());

/**
 * A queue handle on a process's own Redis connection, made on first use and kept: the dashboard and
 * the metrics scrape read counts and schedulers through it without opening a queue per request.
 */
export function sharedQueue(ctx: { redis: Redis; config: Pick<Config, 'redisPrefix'> }, name: QueueName): Queue {
  const queues = sharedQueues(ctx.redis);
  const key = `${ctx.config.redisPrefix}:${name}`;
  let queue = queues.get(key);
  if (!queue) {
    queue = createQueue(name, ctx.redis, ctx.config.redisPrefix);
    queues.set(key, queue);
  }
  return queue;
}

export async function enqueue<N extends JobName>(
  queue: Queue,
  name: N,
  data: JobData<N>,
  opts: { jobId?: string; delay?: number; attempts?: number; backoff?: { type: 'exponential'; delay: number } } = {},
) {
  const job = JOBS[name];
  return queue.add(name, job.schema.parse(data), { attempts: job.attempts, ...opts });
}

/**
 * One job per transaction. A delayed job is promoted to poll now; an active one is already polling
 * (the second caller is deduplicated); a finished one is replaced.
 */
export function createTrackingScheduler(queue: Queue): TrackingScheduler {
  return {
    async schedule(transactionId, delayMs) {
      const jobId = trackingJobId(transactionId);
      const existing = await queue.getJob(jobId);
      if (existing) {
        const state = await existing.getState();
        if (state === 'active' || state === 'waiting' || state === 'waiting-children' || state === 'prioritized')
          return;
        if (state === 'delayed') {
          if (delayMs === 0) await existing.promote().catch(() => {});
          return;
        }
        await existing.remove().catch(() => {});
      }
      await enqueue(queue, 'tracking.poll', { transactionId }, { jobId, delay: delayMs });
    },
    async scheduleNew(transactionId) {
      // Should a job exist after all, BullMQ keeps it and ignores the add (same job id).
      await enqueue(queue, 'tracking.poll', { transactionId }, { jobId: trackingJobId(transactionId) });
    },
    close: () => queue.close(),
  };
}

/** One catalog schedule with its configured interval (the first run is immediate). */
function upsertSchedule(queue: Queue, id: ScheduleId, config: Config) {
  const { job, everyMs } = SCHEDULES[id];
  return queue.upsertJobScheduler(
    id,
    { every: everyMs(config) },
    { name: job, data: {}, opts: { attempts: JOBS[job].attempts } },
  );
}

/**
 * Makes each queue's job schedulers exactly the catalog's: every schedule upserted with its
 * configured interval (the first run is immediate), every other scheduler removed.
 */
export async function syncJobSchedulers(queues: Record<QueueName, Queue>, config: Config) {
  for (const [name, queue] of Object.entries(queues) as [QueueName, Queue][]) {
    const wanted = SCHEDULE_IDS.filter((id) => JOBS[SCHEDULES[id].job].queue === name);
    for (const scheduler of await queue.getJobSchedulers()) {
      if (!(wanted as string[]).includes(scheduler.key)) await queue.removeJobScheduler(scheduler.key);
    }
    for (const id of wanted) await upsertSchedule(queue, id, config);
  }
}

/**
 * Upserts the catalog schedules missing from Redis (after a flush of the BullMQ keys or a Redis
 * restart without persistence, nothing else would bring them back); returns the ones restored.
 */
export async function restoreMissingSchedulers(queues: Record<QueueName, Queue>, config: Config) {
  const restored: string[] = [];
  for (const [name, queue] of Object.entries(queues) as [QueueName, Queue][]) {
    const present = new Set((await queue.getJobSchedulers()).map((s) => s.key));
    for (const id of SCHEDULE_IDS.filter((id) => JOBS[SCHEDULES[id].job].queue === name && !present.has(id))) {
      await upsertSchedule(queue, id, config);
      restored.push(id);
    }
  }
  return restored;
}
