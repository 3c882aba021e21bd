import { createHash } from 'node:crypto';
import { and, eq, or } from 'drizzle-orm';
import { webhookEndpoints, webhookMessages } from '../../drizzle/schema';
import { getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import { newWebhookMessageId } from '../ids';
import { type JobData, WEBHOOK_DELIVERY_ATTEMPTS } from '../tracking/jobs';
import { enqueue } from '../tracking/queues';
import { transactionById } from '../transactions/lookup';
import { presentTransaction } from '../transactions/present';
import { isFinal } from '../transactions/transitions';
import type { WebhookEventType } from './schemas';

/** Every attempt of one message carries its id as `webhook-id`; BullMQ's job id makes a second enqueue a no-op. */
export function enqueueDelivery(ctx: AppContext, messageId: string, redelivery?: { requestedAt: number }) {
  if (!ctx.webhookQueue) throw new Error('no webhook queue in this process');
  const backoff = { type: 'exponential' as const, delay: ctx.config.webhooks.retryBaseDelayMs };
  return redelivery
    ? enqueue(
        ctx.webhookQueue,
        'webhooks.deliver',
        { messageId },
        { jobId: `${messageId}-r${redelivery.requestedAt}`, attempts: 1 },
      )
    : enqueue(
        ctx.webhookQueue,
        'webhooks.deliver',
        { messageId },
        { jobId: messageId, attempts: WEBHOOK_DELIVERY_ATTEMPTS, backoff },
      );
}

export const webhookEventType = (created: boolean, status: Parameters<typeof isFinal>[0]): WebhookEventType =>
  created ? 'transaction.created' : isFinal(status) ? 'transaction.final' : 'transaction.status_changed';

/**
 * One message per matching endpoint: `all`-scope endpoints, and the referral owner's own. A state
 * already sent to an endpoint under the same event type is not sent again, so a retried fan-out or
 * a change nobody can see (a poll that learnt nothing new) costs nothing.
 */
export async function fanOutChange(ctx: AppContext, job: JobData<'webhooks.fan-out'>) {
  const tx = await transactionById(ctx, job.transactionId);
  if (!tx) return { messages: 0 };
  const ownerMatch = tx.referralOwnerId
    ? and(eq(webhookEndpoints.scope, 'affiliate'), eq(webhookEndpoints.ownerId, tx.referralOwnerId))
    : undefined;
  const endpoints = await ctx.db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.enabled, true), or(eq(webhookEndpoints.scope, 'all'), ownerMatch)));
  if (!endpoints.length) return { messages: 0 };

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
    .select({ id: webhookMessages.id })
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
  for (const { id } of unsent) await enqueueDelivery(ctx, id);
  return { messages: unsent.length };
}
