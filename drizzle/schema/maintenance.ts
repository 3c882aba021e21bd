import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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
