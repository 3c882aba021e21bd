import { maintenanceRuns } from '../../drizzle/schema';
import type { AppContext } from '../context';
import type { MaintenanceJobName } from '../tracking/jobs';

type RunFields = Omit<typeof maintenanceRuns.$inferInsert, 'job'>;

async function saveRun(ctx: AppContext, job: MaintenanceJobName, fields: RunFields) {
  await ctx.db
    .insert(maintenanceRuns)
    .values({ job, ...fields })
    .onConflictDoUpdate({ target: maintenanceRuns.job, set: fields })
    .catch((error) => ctx.log.warn({ err: error, job }, 'maintenance run not recorded'));
}

/**
 * Runs one maintenance job and records its start, end, outcome and duration for the operations
 * page. A failure to record never changes the job's own outcome.
 */
export async function recordedRun<T>(ctx: AppContext, job: MaintenanceJobName, task: () => Promise<T>): Promise<T> {
  const startedAt = new Date();
  await saveRun(ctx, job, { lastStartedAt: startedAt });
  const finished = () => {
    const now = new Date();
    return { lastFinishedAt: now, lastDurationMs: now.getTime() - startedAt.getTime() };
  };
  try {
    const result = await task();
    const end = finished();
    await saveRun(ctx, job, { ...end, lastSucceededAt: end.lastFinishedAt, lastOutcome: 'ok', lastError: null });
    return result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await saveRun(ctx, job, { ...finished(), lastOutcome: 'failed', lastError: message.slice(0, 500) });
    throw error;
  }
}
