import { createHash, randomBytes } from 'node:crypto';
import { and, eq, or, sql } from 'drizzle-orm';
import { authUsers, webhookEndpoints, webhookMessages } from '../../drizzle/schema';
import { getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import { isDemoTransactionId } from '../demo-data';
import { newWebhookMessageId } from '../ids';
import { perKey } from '../per-key';
import { JOBS, type JobData } from '../tracking/jobs';
import { transactionById } from '../transactions/lookup';
import { presentTransaction } from '../transactions/present';
import { isFinal } from '../transactions/transitions';
import { ownerMayReceive } from './access';
import { isParkedInRedis, type Placement, placeNewMessages } from './gate';
import type { WebhookEventType } from './schemas';

const deliverJob = JOBS['webhooks.deliver'];

/**
 * Every attempt of one message carries its id as `webhook-id`. One job per message at a time: the
 * first is keyed by the message id (a second enqueue of it is a no-op), and while any job of the
 * message is waiting, delayed or running, BullMQ's deduplication on the message id ignores another.
 * A first job starts where the endpoint's gate placed it (`placeNewMessages`): ready, or parked until
 * `readyAt`. A redelivery is ready at once. Resolves to whether this call queued a job.
 */
export async function enqueueDelivery(
  ctx: AppContext,
  messageId: string,
  start: Placement | { redelivery: true } = { ready: true },
) {
  if (!ctx.webhookQueue) throw new Error('no webhook queue in this process');
  const redelivery = 'redelivery' in start;
  const parked = 'ready' in start && !start.ready;
  const jobId = redelivery ? `${messageId}-r${randomBytes(6).toString('base64url')}` : messageId;
  const retries = redelivery
    ? { attempts: 1 }
    : {
        attempts: deliverJob.attempts,
        backoff: { type: 'exponential' as const, delay: ctx.config.webhooks.retryBaseDelayMs },
      };
  const job = await ctx.webhookQueue.add('webhooks.deliver', deliverJob.schema.parse({ messageId }), {
    jobId,
    deduplication: { id: messageId },
    ...(parked ? { delay: Math.max(0, Math.round(start.readyAt - Date.now())) } : {}),
    ...retries,
  });
  // Handed back before it was added: whoever woke it found nothing to promote.
  if (parked && !(await isParkedInRedis(ctx.redis, ctx.config.redisPrefix, start.endpointId, jobId))) {
    await job.promote().catch(() => {});
  }
  return job.id === jobId;
}

/**
 * The message's job, if it is waiting in delayed (for its next retry, or parked), goes now instead:
 * a redelivery of a message already queued brings that job forward rather than queueing another.
 * Resolves to whether it did (of many at once, one does).
 */
export async function bringForward(ctx: AppContext, messageId: string) {
  if (!ctx.webhookQueue) throw new Error('no webhook queue in this process');
  const jobId = await ctx.webhookQueue.getDeduplicationJobId(messageId);
  const job = jobId ? await ctx.webhookQueue.getJob(jobId) : undefined;
  if (!job || (await job.getState()) !== 'delayed') return false;
  return job.promote().then(
    () => true,
    () => false,
  );
}

/** A job asked for from the dashboard rather than by the fan-out and its retries. */
export const isRedeliveryJob = (jobId: string | undefined, messageId: string) => jobId !== messageId;

export const webhookEventType = (created: boolean, status: Parameters<typeof isFinal>[0]): WebhookEventType =>
  created ? 'transaction.created' : isFinal(status) ? 'transaction.final' : 'transaction.status_changed';

/**
 * The endpoints a change goes to: every enabled `all` endpoint, and the referral owner's `affiliate`
 * ones (none without a referral owner: `owner_id = null` matches nothing), whose owner may receive it.
 * Prepared once per process: every status change of every swap runs it.
 */
const endpointsFor = perKey((ctx: AppContext) =>
  ctx.db
    .select({ id: webhookEndpoints.id, lateEvents: webhookEndpoints.lateEvents })
    .from(webhookEndpoints)
    .innerJoin(authUsers, eq(authUsers.id, webhookEndpoints.ownerId))
    .where(
      and(
        eq(webhookEndpoints.enabled, true),
        or(
          eq(webhookEndpoints.scope, 'all'),
          and(
            eq(webhookEndpoints.scope, 'affiliate'),
            eq(webhookEndpoints.ownerId, sql.placeholder('referralOwnerId')),
          ),
        ),
        ownerMayReceive(),
      ),
    )
    .prepare('webhook_endpoints_for_change'),
);

/**
 * One message per matching endpoint whose owner may still receive it: `all`-scope endpoints of
 * admins, and the referral owner's own. A state
 * already sent to an endpoint under the same event type is not sent again, so a retried fan-out or
 * a change nobody can see (a poll that learnt nothing new) costs nothing. The demo dataset's swaps go
 * nowhere. Answers the messages queued and their endpoints.
 */
export async function fanOutChange(ctx: AppContext, job: JobData<'webhooks.fan-out'>) {
  // Made-up swaps are never sent to anyone's endpoint, whatever changes them (the sweep, support).
  if (isDemoTransactionId(job.transactionId)) return { messages: 0, queued: [] };
  const tx = await transactionById(ctx, job.transactionId);
  if (!tx) return { messages: 0, queued: [] };
  // `transaction.late` is opt-in per endpoint, and only told of a swap still pending.
  if (job.late && tx.status !== 'PENDING') return { messages: 0, queued: [] };
  const matched = await endpointsFor(ctx).execute({ referralOwnerId: tx.referralOwnerId });
  const endpoints = job.late ? matched.filter((endpoint) => endpoint.lateEvents) : matched;
  if (!endpoints.length) return { messages: 0, queued: [] };

  const type = job.late ? 'transaction.late' : webhookEventType(job.created, tx.status);
  const data = presentTransaction(tx, await getCatalog(ctx));
  const { updatedAt: _updatedAt, ...state } = data;
  const digest = createHash('sha256').update(JSON.stringify(state)).digest('base64url');
  const payload = { type, timestamp: (job.created ? tx.createdAt : tx.updatedAt).toISOString(), data };
  await ctx.db
    .insert(webhookMessages)
    .values(
      endpoints.map((endpoint) => ({
        id: newWebhookMessageId(),
        endpointId: endpoint.id,
        transactionId: tx.id,
        eventType: type,
        digest,
        payload,
      })),
    )
    .onConflictDoNothing();
  // Also the messages a failed earlier run of this job stored but never enqueued.
  const unsent = await ctx.db
    .select({ id: webhookMessages.id, endpointId: webhookMessages.endpointId, ownerId: webhookEndpoints.ownerId })
    .from(webhookMessages)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookMessages.endpointId))
    .where(
      and(
        eq(webhookMessages.transactionId, tx.id),
        eq(webhookMessages.eventType, type),
        eq(webhookMessages.digest, digest),
        eq(webhookMessages.state, 'pending'),
        eq(webhookMessages.attempts, 0),
      ),
    );
  const placements = await placeNewMessages(
    ctx.redis,
    ctx.config.redisPrefix,
    ctx.config.webhooks,
    unsent.map((m) => ({ endpointId: m.endpointId, jobId: m.id })),
  );
  await Promise.all(unsent.map(({ id }, i) => enqueueDelivery(ctx, id, placements[i])));
  return { messages: unsent.length, queued: unsent };
}
