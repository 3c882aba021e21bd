import { desc, eq } from 'drizzle-orm';
import { webhookDeliveries, webhookEndpoints, webhookMessages } from '../../drizzle/schema';
import type { Viewer } from '../auth/roles';
import type { AppContext } from '../context';
import { deleteInBatches, olderThan } from '../maintenance/retention';
import { currentViewer } from './access';
import { endpointFor } from './endpoints';
import type { WebhookEndpointDeliveriesInput, WebhookTransactionDeliveriesInput } from './schemas';

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

/** One transaction's attempts to every endpoint (support and admins), newest first. */
export async function transactionDeliveries(ctx: AppContext, viewer: Viewer, input: WebhookTransactionDeliveriesInput) {
  await currentViewer(ctx.db, viewer, 'support');
  return deliveryLog(ctx)
    .where(eq(webhookDeliveries.transactionId, input.transactionId))
    .orderBy(desc(webhookDeliveries.id))
    .limit(200);
}

/** Drops the delivery log (attempts, then the messages they belonged to) past WEBHOOK_DELIVERIES_RETENTION_DAYS. */
export async function pruneWebhookDeliveries(ctx: AppContext) {
  const days = ctx.config.retention.webhookDeliveriesDays;
  return {
    attempts: await deleteInBatches(ctx, 'webhook_deliveries', olderThan(ctx, 'created_at', days)),
    messages: await deleteInBatches(ctx, 'webhook_messages', olderThan(ctx, 'created_at', days)),
  };
}
