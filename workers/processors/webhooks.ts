import { DelayedError, type Job, UnrecoverableError } from 'bullmq';
import type { AppContext } from '../../server/context';
import { JOBS } from '../../server/tracking/jobs';
import { createDispatcher } from '../../server/webhooks/dispatch';

export { webhooksWorkerConcurrency } from '../../server/webhooks/dispatch';

import { fanOutChange, isRedeliveryJob } from '../../server/webhooks/fan-out';

/**
 * Fan-out matches endpoints and enqueues one delivery each. A delivery whose endpoint may not be
 * attempted now goes back to delayed (no attempt counted, no slot held); one that fails throws so
 * BullMQ retries it with backoff.
 */
export function webhooksProcessor(ctx: AppContext) {
  const { dispatch, remember, isParked } = createDispatcher(ctx);
  return async (job: Job, token?: string) => {
    if (job.name === 'webhooks.fan-out') {
      const { messages, queued } = await fanOutChange(ctx, JOBS['webhooks.fan-out'].schema.parse(job.data));
      remember(queued);
      return { messages };
    }
    if (job.name !== 'webhooks.deliver') throw new UnrecoverableError(`unknown webhooks job ${job.name}`);
    const { messageId } = JOBS['webhooks.deliver'].schema.parse(job.data);
    const result = await dispatch({
      jobId: String(job.id),
      queuedAt: job.timestamp,
      messageId,
      lastAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1),
      redelivery: isRedeliveryJob(job.id, messageId),
    });
    if ('deferUntil' in result) {
      await job.moveToDelayed(result.deferUntil, token);
      // Handed back while on its way to delayed: whoever woke it found nothing to promote.
      if (!(await isParked(result.endpointId, String(job.id)))) await job.promote().catch(() => {});
      throw new DelayedError();
    }
    const { outcome } = result;
    if (!outcome.delivered && !outcome.skipped) throw new Error(outcome.error ?? 'delivery failed');
    return outcome;
  };
}
