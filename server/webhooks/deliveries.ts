import { and, desc, eq } from 'drizzle-orm';
import { webhookDeliveries, webhookEndpoints, webhookMessages } from '../../drizzle/schema';
import type { Viewer } from '../auth/roles';
import type { AppContext } from '../context';
import { AppError, notFound } from '../errors';
import { deleteInBatches, olderThan } from '../maintenance/retention';
import { endpointFor } from './endpoints';
import { enqueueDelivery } from './fan-out';
import type {
  RedeliverWebhookInput,
  WebhookEndpointDeliveriesInput,
  WebhookTransactionDeliveriesInput,
} from './schemas';

const deliveryColumns = {
  id: webhookDeliveries.id,
  messageId: webhookDeliveries.messageId,
  endpointId: webhookDeliveries.endpointId,
  endpointUrl: webhookEndpoints.url,
  transactionId: webhookDeliveries.transactionId,
  eventType: webhookDeliveries.eventType,
  attempt: webhookDeliveries.attempt,
  statusCode: webhookDeliveries.statusCode,
  latencyMs: webhookDeliveries.latencyMs,
  error: webhookDeliveries.error,
  at: webhookDeliveries.createdAt,
  messageState: webhookMessages.state,
};

const deliveryLog = (ctx: AppContext) =>
  ctx.db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .innerJoin(webhookMessages, eq(webhookMessages.id, webhookDeliveries.messageId))
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId));

/** One endpoint's attempts, newest first. */
export async function endpointDeliveries(ctx: AppContext, viewer: Viewer, input: WebhookEndpointDeliveriesInput) {
  const endpoint = await endpointFor(ctx, viewer, input.endpointId);
  return deliveryLog(ctx)
    .where(eq(webhookDeliveries.endpointId, endpoint.id))
    .orderBy(desc(webhookDeliveries.id))
    .limit(input.limit);
}

/** One transaction's attempts to every endpoint the viewer may see (support and admins: all), newest first. */
export async function transactionDeliveries(ctx: AppContext, viewer: Viewer, input: WebhookTransactionDeliveriesInput) {
  const mine = viewer.role === 'affiliate' ? eq(webhookEndpoints.ownerId, viewer.userId) : undefined;
  return deliveryLog(ctx)
    .where(and(eq(webhookDeliveries.transactionId, input.transactionId), mine))
    .orderBy(desc(webhookDeliveries.id))
    .limit(200);
}

/** Sends a message once more, with its original `webhook-id`, to the endpoint's current URL and secret. */
export async function redeliverWebhook(ctx: AppContext, viewer: Viewer, input: RedeliverWebhookInput) {
  const [message] = await ctx.db
    .select({ id: webhookMessages.id, endpointId: webhookMessages.endpointId })
    .from(webhookMessages)
    .where(eq(webhookMessages.id, input.messageId))
    .limit(1);
  if (!message) throw notFound('Webhook message', 'messageId');
  const endpoint = await endpointFor(ctx, viewer, message.endpointId).catch(() => {
    throw notFound('Webhook message', 'messageId');
  });
  if (!endpoint.enabled) {
    throw new AppError('VALIDATION_ERROR', 'This endpoint is disabled; enable it before redelivering', {
      field: 'messageId',
      status: 409,
      retryable: false,
    });
  }
  await ctx.db.update(webhookMessages).set({ state: 'pending' }).where(eq(webhookMessages.id, message.id));
  await enqueueDelivery(ctx, message.id, { requestedAt: Date.now() });
  return { messageId: message.id, queued: true };
}

/** Drops the delivery log (attempts, then the messages they belonged to) past WEBHOOK_DELIVERIES_RETENTION_DAYS. */
export async function pruneWebhookDeliveries(ctx: AppContext) {
  const days = ctx.config.retention.webhookDeliveriesDays;
  return {
    attempts: await deleteInBatches(ctx, 'webhook_deliveries', olderThan(ctx, 'created_at', days)),
    messages: await deleteInBatches(ctx, 'webhook_messages', olderThan(ctx, 'created_at', days)),
  };
}
