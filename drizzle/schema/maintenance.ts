import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** The latest run of each scheduled maintenance job, for the operations page. */
export const maintenanceRuns = pgTable('maintenance_runs', {
  job: text('job').primaryKey(),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true, mode: 'date' }),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true, mode: 'date' }),
  lastSucceededAt: timestamp('last_succeeded_at', { withTimezone: true, mode: 'date' }),
  lastOutcome: text('last_outcome', { enum: ['ok', 'failed'] }),
  lastError: text('last_error'),
  lastDurationMs: integer('last_duration_ms'),
});

/** Each queue's job counts, sampled by the worker every minute, for the operations trend chart. */
export const queueDepthSamples = pgTable(
  'queue_depth_samples',
  {
    sampledAt: timestamp('sampled_at', { withTimezone: true, mode: 'date' }).notNull(),
    queue: text('queue').notNull(),
    waiting: integer('waiting').notNull(),
    active: integer('active').notNull(),
    delayed: integer('delayed').notNull(),
    failed: integer('failed').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sampledAt, t.queue] })],
);
