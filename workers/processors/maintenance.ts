import type { Job } from 'bullmq';
import type { AppContext, TrackingScheduler } from '../../server/context';
import { JOBS, type JobName } from '../../server/tracking/jobs';
import { sweep } from '../../server/tracking/sweep';

export interface MaintenanceTasks {
  'maintenance.sweep': () => Promise<unknown>;
  'maintenance.rollup-rate-limits'?: () => Promise<unknown>;
  'maintenance.refresh-prices'?: () => Promise<unknown>;
}

export function maintenanceProcessor(
  ctx: AppContext,
  scheduler: TrackingScheduler,
  extra: Partial<MaintenanceTasks> = {},
) {
  const tasks: MaintenanceTasks = { 'maintenance.sweep': () => sweep(ctx, scheduler), ...extra };
  return async (job: Job) => {
    const name = job.name as JobName;
    if (!(name in JOBS) || JOBS[name].queue !== 'maintenance') throw new Error(`unknown maintenance job ${job.name}`);
    JOBS[name].schema.parse(job.data);
    const task = tasks[name as keyof MaintenanceTasks];
    if (!task) return { skipped: true };
    const result = await task();
    ctx.log.debug({ job: name, result }, 'maintenance done');
    return result;
  };
}
