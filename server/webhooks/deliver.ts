import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { authUsers, webhookDeliveries, webhookEndpoints, webhookMessages } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { AppError } from '../errors';
import { NO_OWNER, ownerBlock, ownerColumns } from './access';
import { type CheckedTarget, checkWebhookTarget } from './guard';

type EndpointRow = typeof webhookEndpoints.$inferSelect;

const DAY_MS = 24 * 3600_000;

export interface DeliveryOutcome {
  delivered: boolean;
  /** Nothing was attempted: the message or its endpoint is gone, the endpoint is disabled, or its owner may no longer receive it. */
  skipped?: string;
  statusCode?: number | null;
  error?: string | null;
  latencyMs?: number;
}

/** `v1,<sig>` for the current secret, and for the previous one while a rotation's grace lasts. */
export function signatures(endpoint: EndpointRow, messageId: string, at: Date, body: string, now = Date.now()) {
  const secrets = [endpoint.secret];
  if (endpoint.previousSecret && (endpoint.previousSecretExpiresAt?.getTime() ?? 0) > now) {
    secrets.push(endpoint.previousSecret);
  }
  return secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' ');
}

/** Connects to the address the guard checked, whatever the name resolves to by now. */
const pinnedLookup =
  (target: CheckedTarget): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };

/**
 * One POST, no redirects followed (Node's client never follows them): the answer's status once its
 * headers are in, or a thrown error. `signal` bounds the whole exchange; the body is never read.
 */
function post(target: CheckedTarget, headers: Record<string, string>, body: string, signal: AbortSignal) {
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    const request = client.request(target.url, {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
      lookup: pinnedLookup(target),
      agent: false,
      signal,
    });
    request.on('response', (response) => {
      resolve(response.statusCode ?? 0);
      response.destroy();
    });
    request.on('error', reject);
    request.end(body);
  });
}

function describeFailure(error: unknown, deadline: AbortSignal, timeoutMs: number): string {
  if (error instanceof AppError) return `refused: ${error.message}`;
  if (deadline.aborted)
    return typeof deadline.reason === 'string' ? deadline.reason : `no answer within ${timeoutMs / 1000} s`;
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : 'delivery failed';
}

/**
 * One attempt at one message: checks that the endpoint's owner may still receive it and the target
 * again, signs (Standard Webhooks), posts, and logs the answer. Any 2xx is delivered. The whole
 * attempt (name lookup, connect, request, answer headers) ends at WEBHOOK_TIMEOUT_MS, or when `signal`
 * aborts. Failures start
 * the endpoint's failure clock; an endpoint that has failed for WEBHOOK_DISABLE_AFTER_DAYS is disabled.
 */
export async function deliverMessage(
  ctx: AppContext,
  messageId: string,
  { lastAttempt, signal }: { lastAttempt: boolean; signal?: AbortSignal },
): Promise<DeliveryOutcome> {
  const [found] = await ctx.db
    .select({ message: webhookMessages, endpoint: webhookEndpoints, owner: ownerColumns })
    .from(webhookMessages)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookMessages.endpointId))
    .leftJoin(authUsers, eq(authUsers.id, webhookEndpoints.ownerId))
    .where(eq(webhookMessages.id, messageId))
    .limit(1);
  if (!found) return { delivered: false, skipped: 'message or endpoint deleted' };
  const { message, endpoint } = found;
  const blocked = ownerBlock(endpoint.scope, found.owner ?? NO_OWNER);
  if (!endpoint.enabled || blocked) {
    await ctx.db.update(webhookMessages).set({ state: 'failed' }).where(eq(webhookMessages.id, messageId));
    return { delivered: false, skipped: blocked ? 'owner may no longer receive it' : 'endpoint disabled' };
  }

  const [counted] = await ctx.db
    .update(webhookMessages)
    .set({ attempts: sql`${webhookMessages.attempts} + 1` })
    .where(eq(webhookMessages.id, messageId))
    .returning({ attempts: webhookMessages.attempts });
  const body = JSON.stringify(message.payload);
  const at = new Date();
  const started = performance.now();
  const { attemptTimeoutMs } = ctx.config.webhooks;
  // `signal`: the gate cuts an attempt short when it gives its place away (its reason, a string, is logged).
  const deadline = signal
    ? AbortSignal.any([AbortSignal.timeout(attemptTimeoutMs), signal])
    : AbortSignal.timeout(attemptTimeoutMs);
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    const target = await checkWebhookTarget(endpoint.url, ctx.config.webhooks, deadline);
    statusCode = await post(
      target,
      {
        'content-type': 'application/json',
        'user-agent': 'Switchyard-Webhooks/1',
        'webhook-id': messageId,
        'webhook-timestamp': Math.floor(at.getTime() / 1000).toString(),
        'webhook-signature': signatures(endpoint, messageId, at, body),
      },
      body,
      deadline,
    );
    if (statusCode < 200 || statusCode > 299) error = `answered ${statusCode}`;
  } catch (caught) {
    error = describeFailure(caught, deadline, attemptTimeoutMs);
  }
  const delivered = error === null;
  const latencyMs = Math.round(performance.now() - started);
  const disabled = await recordAttempt(ctx, endpoint, message, {
    attempt: counted?.attempts ?? 1,
    statusCode,
    latencyMs,
    error,
    lastAttempt,
  });
  if (disabled) ctx.log.warn({ endpointId: endpoint.id }, 'webhook endpoint disabled after days of failed deliveries');
  return { delivered, statusCode, error, latencyMs };
}

/**
 * Logs the attempt and moves the message and the endpoint's failure clock on, in one transaction
 * that locks the endpoint row first, as deleting the endpoint does, so the two never deadlock. An
 * endpoint deleted meanwhile takes its log with it, so nothing is written. Returns whether this
 * attempt disabled the endpoint.
 */
async function recordAttempt(
  ctx: AppContext,
  endpoint: EndpointRow,
  message: typeof webhookMessages.$inferSelect,
  attempt: {
    attempt: number;
    statusCode: number | null;
    latencyMs: number;
    error: string | null;
    lastAttempt: boolean;
  },
): Promise<boolean> {
  const delivered = attempt.error === null;
  const failingSince = endpoint.failingSince ?? new Date();
  const disable = !delivered && Date.now() - failingSince.getTime() >= ctx.config.webhooks.disableAfterDays * DAY_MS;
  return ctx.db.transaction(async (db) => {
    const [locked] = await db
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint.id))
      .for('no key update');
    if (!locked) return false;
    await db.insert(webhookDeliveries).values({
      messageId: message.id,
      endpointId: endpoint.id,
      transactionId: message.transactionId,
      eventType: message.eventType,
      attempt: attempt.attempt,
      statusCode: attempt.statusCode,
      latencyMs: attempt.latencyMs,
      error: attempt.error,
    });
    const state = delivered ? 'delivered' : attempt.lastAttempt ? 'failed' : undefined;
    if (state) {
      await db
        .update(webhookMessages)
        .set({ state, ...(delivered ? { deliveredAt: sql`now()` } : {}) })
        .where(eq(webhookMessages.id, message.id));
    }
    await db
      .update(webhookEndpoints)
      .set(
        delivered
          ? { failingSince: null }
          : {
              failingSince: sql`coalesce(${webhookEndpoints.failingSince}, now())`,
              ...(disable
                ? {
                    enabled: false,
                    disabledReason: `Every delivery failed for ${ctx.config.webhooks.disableAfterDays} days`,
                    updatedAt: sql`now()`,
                  }
                : {}),
            },
      )
      .where(eq(webhookEndpoints.id, endpoint.id));
    return disable;
  });
}
