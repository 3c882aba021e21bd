import { type Job, UnrecoverableError } from 'bullmq';
import type { AppContext } from '../../server/context';
import { JOBS } from '../../server/tracking/jobs';
import { deliverMessage } from '../../server/webhooks/deliver';
import { fanOutChange } from '../../server/webhooks/fan-out';

/** Fan-out matches endpoints and enqueues one delivery each; a delivery that fails throws so BullMQ retries it with backoff. */
export function webhooksProcessor(ctx: AppContext) {
  return async (job: Job) => {
    if (job.name === 'webhooks.fan-out') return fanOutChange(ctx, JOBS['webhooks.fan-out'].schema.parse(job.data));
    if (job.name !== 'webhooks.deliver') throw new UnrecoverableError(`unknown webhooks job ${job.name}`);
    const { messageId } = JOBS['webhooks.deliver'].schema.parse(job.data);
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const outcome = await deliverMessage(ctx, messageId, { lastAttempt });
    if (!outcome.delivered && !outcome.skipped) throw new Error(outcome.error ?? 'delivery failed');
    return outcome;
  };
}
