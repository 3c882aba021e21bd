import { createHash, randomBytes } from 'node:crypto';
import { and, eq, or } from 'drizzle-orm';
import { authUsers, webhookEndpoints, webhookMessages } from '../../drizzle/schema';
import { getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import { newWebhookMessageId } from '../ids';
import { JOBS, type JobData } from '../tracking/jobs';
import { transactionById } from '../transactions/lookup';
import { presentTransaction } from '../transactions/present';
import { isFinal } from '../transactions/transitions';
import { ownerMayReceive } from './access';
import { answeringPromptly } from './gate';
import type { WebhookEventType } from './schemas';

const deliverJob = JOBS['webhooks.deliver'];

/** Behind every job of priority 0 (fan-outs, redeliveries, endpoints that answer promptly): BullMQ takes prioritized jobs only when none of those wait. */
const UNPROVEN_PRIORITY = 10;

/**
 * Every attempt of one message carries its id as `webhook-id`. One job per message at a time: the
 * first is keyed by the message id (a second enqueue of it is a no-op), and while any job of the
 * message is waiting, delayed or running, BullMQ's deduplication on the message id ignores another.
 * A message to an endpoint that has not answered promptly (new, slow, failing or paused) waits
 * behind everyone else's. Resolves to whether this call queued a job.
 */
export async function enqueueDelivery(
  ctx: AppContext,
  messageId: string,
  { redelivery = false, answersPromptly = true } = {},
) {
  if (!ctx.webhookQueue) throw new Error('no webhook queue in this process');
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
    ...(answersPromptly ? {} : { priority: UNPROVEN_PRIORITY }),
    ...retries,
  });
  return job.id === jobId;
}

/** A job asked for from the dashboard rather than by the fan-out and its retries. */
export const isRedeliveryJob = (jobId: string | undefined, messageId: string) => jobId !== messageId;

export const webhookEventType = (created: boolean, status: Parameters<typeof isFinal>[0]): WebhookEventType =>
  created ? 'transaction.created' : isFinal(status) ? 'transaction.final' : 'transaction.status_changed';

/**
 * One message per matching endpoint whose owner may still receive it: `all`-scope endpoints of
 * admins, and the referral owner's own. A state
 * already sent to an endpoint under the same event type is not sent again, so a retried fan-out or
 * a change nobody can see (a poll that learnt nothing new) costs nothing. Answers the messages queued
 * and their endpoints.
 */
export async function fanOutChange(ctx: AppContext, job: JobData<'webhooks.fan-out'>) {
  const tx = await transactionById(ctx, job.transactionId);
  if (!tx) return { messages: 0, queued: [] };
  const ownerMatch = tx.referralOwnerId
    ? and(eq(webhookEndpoints.scope, 'affiliate'), eq(webhookEndpoints.ownerId, tx.referralOwnerId))
    : undefined;
  const endpoints = await ctx.db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .innerJoin(authUsers, eq(authUsers.id, webhookEndpoints.ownerId))
    .where(
      and(eq(webhookEndpoints.enabled, true), or(eq(webhookEndpoints.scope, 'all'), ownerMatch), ownerMayReceive()),
    );
  if (!endpoints.length) return { messages: 0, queued: [] };

  const type = webhookEventType(job.created, tx.status);
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
    .select({ id: webhookMessages.id, endpointId: webhookMessages.endpointId })
    .from(webhookMessages)
    .where(
      and(
        eq(webhookMessages.transactionId, tx.id),
        eq(webhookMessages.eventType, type),
        eq(webhookMessages.digest, digest),
        eq(webhookMessages.state, 'pending'),
        eq(webhookMessages.attempts, 0),
      ),
    );
  const prompt = await answeringPromptly(
    ctx.redis,
    ctx.config.redisPrefix,
    unsent.map((m) => m.endpointId),
  );
  await Promise.all(
    unsent.map(({ id, endpointId }) => enqueueDelivery(ctx, id, { answersPromptly: prompt.has(endpointId) })),
  );
  return { messages: unsent.length, queued: unsent };
}
