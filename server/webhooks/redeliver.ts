import { eq } from 'drizzle-orm';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { webhookMessages } from '../../drizzle/schema';
import { NO_ORIGIN, recordAudit } from '../audit/record';
import type { Viewer } from '../auth/roles';
import type { AppContext } from '../context';
import { AppError, notFound } from '../errors';
import { perKey } from '../per-key';
import { endpointFor } from './endpoints';
import { bringForward, enqueueDelivery } from './fan-out';
import type { RedeliverWebhookInput } from './schemas';

const WINDOW_SECONDS = 60;

/** Every redeliver call counts, refused or not: a window starts at a user's first call and lasts a minute. */
const redeliveriesOf = perKey(
  (ctx: AppContext) =>
    new RateLimiterRedis({
      storeClient: ctx.redis,
      keyPrefix: `${ctx.config.redisPrefix}:webhooks:redeliver`,
      points: ctx.config.webhooks.redeliveriesPerMinute,
      duration: WINDOW_SECONDS,
    }),
);

async function countRedelivery(ctx: AppContext, userId: string) {
  try {
    await redeliveriesOf(ctx).consume(userId);
  } catch (refusal) {
    if (!(refusal instanceof RateLimiterRes)) throw refusal;
    const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
    throw new AppError(
      'RATE_LIMITED',
      `You have asked for ${ctx.config.webhooks.redeliveriesPerMinute} redeliveries in the last minute, the most allowed. Try again in ${seconds} s.`,
      { field: 'messageId', retryable: true, headers: { 'Retry-After': String(seconds) } },
    );
  }
}

/**
 * Sends a message once more, with its original `webhook-id`, to the endpoint's current URL and
 * secret. A message still queued is not queued again: one waiting for its next retry has that retry
 * brought forward, one waiting to be sent or being sent is refused. At most the user's redeliveries
 * per minute.
 */
export async function redeliverWebhook(
  ctx: AppContext,
  viewer: Viewer,
  input: RedeliverWebhookInput,
  origin = NO_ORIGIN,
) {
  await countRedelivery(ctx, viewer.userId);
  const [message] = await ctx.db
    .select({ id: webhookMessages.id, endpointId: webhookMessages.endpointId })
    .from(webhookMessages)
    .where(eq(webhookMessages.id, input.messageId))
    .limit(1);
  if (!message) throw notFound('Webhook message', 'messageId');
  const endpoint = await endpointFor(ctx, viewer, message.endpointId).catch((error) => {
    throw error instanceof AppError && error.code === 'NOT_FOUND' ? notFound('Webhook message', 'messageId') : error;
  });
  const refusedBecause =
    endpoint.ownerBlock ?? (endpoint.enabled ? null : 'This endpoint is disabled; enable it before redelivering');
  if (refusedBecause) {
    throw new AppError('VALIDATION_ERROR', refusedBecause, { field: 'messageId', status: 409, retryable: false });
  }
  await ctx.db.transaction(async (tx) => {
    await tx.update(webhookMessages).set({ state: 'pending' }).where(eq(webhookMessages.id, message.id));
    await recordAudit(tx, {
      action: 'webhook.redeliver',
      actor: viewer,
      origin,
      targetId: message.id,
      after: { endpointId: endpoint.id },
    });
  });
  if (await enqueueDelivery(ctx, message.id, { redelivery: true })) return { messageId: message.id, queued: true };
  if (await bringForward(ctx, message.id)) return { messageId: message.id, queued: true, broughtForward: true };
  throw new AppError(
    'VALIDATION_ERROR',
    'This message is already being sent, or about to be. Redeliver it once that attempt has finished.',
    { field: 'messageId', status: 409, retryable: true },
  );
}
