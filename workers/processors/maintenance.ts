import { type Job, UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import { refreshPrices } from '../../server/catalog/prices';
import type { AppContext } from '../../server/context';
import { pruneSamples } from '../../server/maintenance/retention';
import { recordedRun } from '../../server/maintenance/runs';
import { sampleQueueDepths } from '../../server/observability/trends';
import { rollupRateLimitHits } from '../../server/ratelimit/hits';
import { rollupActivity } from '../../server/rollups/run';
import { notifyLateSwaps } from '../../server/route-times/late';
import { JOBS, type JobName, type MaintenanceJobName } from '../../server/tracking/jobs';
import type { TrackingScheduler } from '../../server/tracking/queues';
import { sweep } from '../../server/tracking/sweep';
import { pruneWebhookDeliveries } from '../../server/webhooks/deliveries';

export type MaintenanceTasks = Record<MaintenanceJobName, () => Promise<unknown>>;

/** What each maintenance job does; `redis` is a worker connection that waits out a Redis restart. */
export function maintenanceTasks(ctx: AppContext, scheduler: TrackingScheduler, redis: Redis): MaintenanceTasks {
  return {
    'maintenance.sweep': async () => ({ ...(await sweep(ctx, scheduler)), ...(await notifyLateSwaps(ctx)) }),
    'maintenance.rollup-rate-limits': () => rollupRateLimitHits(ctx, redis),
    'maintenance.refresh-prices': () => refreshPrices(ctx),
    'maintenance.prune': () => pruneSamples(ctx),
    'maintenance.sample-queues': () => sampleQueueDepths(ctx),
    'maintenance.prune-webhook-deliveries': () => pruneWebhookDeliveries(ctx),
    'maintenance.rollup': () => rollupActivity(ctx),
  };
}

const isMaintenanceJob = (name: string): name is MaintenanceJobName =>
  name in JOBS && JOBS[name as JobName].queue === 'maintenance';

export function maintenanceProcessor(ctx: AppContext, tasks: MaintenanceTasks) {
  return async (job: Job) => {
    if (!isMaintenanceJob(job.name)) throw new UnrecoverableError(`unknown maintenance job ${job.name}`);
    const name = job.name;
    JOBS[name].schema.parse(job.data);
    const result = await recordedRun(ctx, name, tasks[name]);
    ctx.log.debug({ job: name, result }, 'maintenance done');
    return result;
  };
}
