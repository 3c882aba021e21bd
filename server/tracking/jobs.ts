import { z } from 'zod';
import type { Config } from '../config';

export const QUEUES = ['tracking', 'maintenance', 'webhooks'] as const;
export type QueueName = (typeof QUEUES)[number];

const transactionJob = z.object({ transactionId: z.string().regex(/^tx_[0-9A-Za-z]{22}$/) });
const emptyJob = z.object({}).strict();
const webhookFanOutJob = z.object({
  transactionId: transactionJob.shape.transactionId,
  created: z.boolean(),
  /** A pending swap turned late (`transaction.late`, to endpoints that opted in). */
  late: z.boolean().optional(),
});
const webhookDeliveryJob = z.object({ messageId: z.string().regex(/^msg_[0-9A-Za-z]{22}$/) });

/** Attempts of one webhook message: with the first retry after WEBHOOK_RETRY_BASE_DELAY_MS (3 min) and each later one doubling, the last is about a day after the first. */
export const WEBHOOK_DELIVERY_ATTEMPTS = 10;

/** Every job: its queue, payload schema and retry policy. Enqueue and processors are typed by name. */
export const JOBS = {
  'tracking.poll': { queue: 'tracking', schema: transactionJob, attempts: 1 },
  'maintenance.sweep': { queue: 'maintenance', schema: emptyJob, attempts: 1 },
  'maintenance.rollup-rate-limits': { queue: 'maintenance', schema: emptyJob, attempts: 3 },
  'maintenance.refresh-prices': { queue: 'maintenance', schema: emptyJob, attempts: 2 },
  'maintenance.prune': { queue: 'maintenance', schema: emptyJob, attempts: 2 },
  'maintenance.sample-queues': { queue: 'maintenance', schema: emptyJob, attempts: 1 },
  'maintenance.prune-webhook-deliveries': { queue: 'maintenance', schema: emptyJob, attempts: 2 },
  'maintenance.rollup': { queue: 'maintenance', schema: emptyJob, attempts: 2 },
  'webhooks.fan-out': { queue: 'webhooks', schema: webhookFanOutJob, attempts: 5 },
  'webhooks.deliver': { queue: 'webhooks', schema: webhookDeliveryJob, attempts: WEBHOOK_DELIVERY_ATTEMPTS },
} as const satisfies Record<string, { queue: QueueName; schema: z.ZodType; attempts: number }>;

export type JobName = keyof typeof JOBS;
export type JobData<N extends JobName> = z.output<(typeof JOBS)[N]['schema']>;
export type MaintenanceJobName = {
  [N in JobName]: (typeof JOBS)[N]['queue'] extends 'maintenance' ? N : never;
}[JobName];

/**
 * The periodic jobs the worker keeps scheduled, by BullMQ job-scheduler id. Every worker upserts
 * these at start and removes any other scheduler it finds (a leftover of an older version).
 */
export const SCHEDULES = {
  sweep: { job: 'maintenance.sweep', everyMs: (c: Config) => c.worker.sweepIntervalMs },
  'rollup-rate-limits': {
    job: 'maintenance.rollup-rate-limits',
    everyMs: (c: Config) => c.worker.rateLimitRollupIntervalMs,
  },
  'refresh-prices': { job: 'maintenance.refresh-prices', everyMs: (c: Config) => c.worker.priceRefreshIntervalMs },
  prune: { job: 'maintenance.prune', everyMs: (c: Config) => c.worker.pruneIntervalMs },
  'sample-queues': { job: 'maintenance.sample-queues', everyMs: (c: Config) => c.worker.queueSampleIntervalMs },
  'prune-webhook-deliveries': {
    job: 'maintenance.prune-webhook-deliveries',
    everyMs: (c: Config) => c.worker.pruneIntervalMs,
  },
  rollup: { job: 'maintenance.rollup', everyMs: (c: Config) => c.worker.rollupIntervalMs },
} as const satisfies Record<string, { job: MaintenanceJobName; everyMs: (config: Config) => number }>;

export type ScheduleId = keyof typeof SCHEDULES;
export const SCHEDULE_IDS = Object.keys(SCHEDULES) as ScheduleId[];

/** BullMQ job ids may not contain ':'; a transaction id is already safe and unique. */
export const trackingJobId = (transactionId: string) => transactionId;
