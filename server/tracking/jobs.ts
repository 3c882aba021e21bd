import { z } from 'zod';

export const QUEUES = ['tracking', 'maintenance'] as const;
export type QueueName = (typeof QUEUES)[number];

const transactionJob = z.object({ transactionId: z.string().regex(/^tx_[0-9A-Za-z]{22}$/) });
const emptyJob = z.object({}).strict();

/** Every job: its queue, payload schema and retry policy. Enqueue and processors are typed by name. */
export const JOBS = {
  'tracking.poll': { queue: 'tracking', schema: transactionJob, attempts: 1 },
  'maintenance.sweep': { queue: 'maintenance', schema: emptyJob, attempts: 1 },
  'maintenance.rollup-rate-limits': { queue: 'maintenance', schema: emptyJob, attempts: 3 },
  'maintenance.refresh-prices': { queue: 'maintenance', schema: emptyJob, attempts: 2 },
} as const satisfies Record<string, { queue: QueueName; schema: z.ZodType; attempts: number }>;

export type JobName = keyof typeof JOBS;
export type JobData<N extends JobName> = z.output<(typeof JOBS)[N]['schema']>;

/** BullMQ job ids may not contain ':'; a transaction id is already safe and unique. */
export const trackingJobId = (transactionId: string) => transactionId;
