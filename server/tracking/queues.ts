import { type ConnectionOptions, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import type { TrackingScheduler } from '../context';
import { JOBS, type JobData, type JobName, type QueueName, SCHEDULE_IDS, SCHEDULES, trackingJobId } from './jobs';

/** Hash-tagged so every key of a queue lands on one Redis Cluster slot. */
export const bullPrefix = (redisPrefix: string) => `{${redisPrefix}}`;

export function createQueue(name: QueueName, connection: Redis | ConnectionOptions, redisPrefix: string): Queue {
  const queue = new Queue(name, {
    connection: connection as ConnectionOptions,
    prefix: bullPrefix(redisPrefix),
    defaultJobOptions: { removeOnComplete: { count: 1000 }, removeOnFail: { count: 5000, age: 7 * 24 * 3600 } },
  });
  // Connection errors also reject the calls that hit them; callers decide what they mean.
  queue.on('error', () => {});
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
    close: () => queue.close(),
  };
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
    for (const id of wanted) {
      const { job, everyMs } = SCHEDULES[id];
      await queue.upsertJobScheduler(
        id,
        { every: everyMs(config) },
        { name: job, data: {}, opts: { attempts: JOBS[job].attempts } },
      );
    }
  }
}
