import { DelayedError, type Job } from 'bullmq';
import type { AppContext } from '../../server/context';
import { JOBS } from '../../server/tracking/jobs';
import { pollTransaction } from '../../server/tracking/poll';

/** BullMQ only checks what it is: one instance, not an error and its stack trace per poll. */
const MOVED_TO_DELAYED = new DelayedError();

/**
 * One job per transaction: each run polls once, then either moves itself back to delayed for the
 * next poll or completes when the swap has settled (BullMQ "process step jobs" pattern).
 */
export function trackingProcessor(ctx: AppContext) {
  return async (job: Job, token?: string) => {
    const { transactionId } = JOBS['tracking.poll'].schema.parse(job.data);
    // No AsyncLocalStorage context per job: once used it taxes every promise of the process, and
    // every line a poll logs already names its transaction.
    const outcome = await pollTransaction(ctx, transactionId, { attempt: job.attemptsStarted });
    ctx.log.debug({ transactionId, status: outcome.status, next: outcome.nextDelayMs }, 'polled');
    if (outcome.keepTracking && outcome.nextDelayMs !== null && token) {
      await job.moveToDelayed(Date.now() + outcome.nextDelayMs, token);
      throw MOVED_TO_DELAYED;
    }
    return { status: outcome.status };
  };
}
