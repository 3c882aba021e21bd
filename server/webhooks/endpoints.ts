import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { authUsers, webhookEndpoints } from '../../drizzle/schema';
import type { Viewer } from '../auth/roles';
import type { AppContext } from '../context';
import { AppError, notFound } from '../errors';
import { newWebhookEndpointId } from '../ids';
import { checkWebhookTarget } from './guard';
import type { CreateWebhookEndpointInput, WebhookEndpointInput } from './schemas';

type EndpointRow = typeof webhookEndpoints.$inferSelect;

const MAX_ENDPOINTS_PER_OWNER = 10;
/** How long a rotated-out secret still signs deliveries beside the new one. */
const PREVIOUS_SECRET_GRACE_MS = 24 * 3600_000;

/** `whsec_` and 24 random bytes in base64, the secret format Standard Webhooks libraries accept. */
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** Admins manage every endpoint; anyone else only their own. */
const visibleTo = (viewer: Viewer) =>
  viewer.role === 'admin' ? undefined : eq(webhookEndpoints.ownerId, viewer.userId);

/** Someone else's endpoint reads as unknown rather than forbidden, so ids cannot be probed. */
export async function endpointFor(ctx: AppContext, viewer: Viewer, endpointId: string): Promise<EndpointRow> {
  const [row] = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), visibleTo(viewer)))
    .limit(1);
  if (!row) throw notFound('Webhook endpoint', 'endpointId');
  return row;
}

const presentEndpoint = (row: EndpointRow, ownerEmail: string | null) => ({
  id: row.id,
  url: row.url,
  scope: row.scope,
  description: row.description,
  enabled: row.enabled,
  disabledReason: row.disabledReason,
  failingSince: row.failingSince,
  ownerId: row.ownerId,
  ownerEmail,
  createdAt: row.createdAt,
});
export type WebhookEndpointSummary = ReturnType<typeof presentEndpoint>;

export async function listWebhookEndpoints(ctx: AppContext, viewer: Viewer) {
  const rows = await ctx.db
    .select({ endpoint: webhookEndpoints, ownerEmail: authUsers.email })
    .from(webhookEndpoints)
    .leftJoin(authUsers, eq(authUsers.id, webhookEndpoints.ownerId))
    .where(visibleTo(viewer))
    .orderBy(desc(webhookEndpoints.createdAt));
  return rows.map((r) => presentEndpoint(r.endpoint, r.ownerEmail));
}

/** Registers an endpoint after checking where its URL resolves; the secret is returned this once. */
export async function createWebhookEndpoint(ctx: AppContext, viewer: Viewer, input: CreateWebhookEndpointInput) {
  if (input.scope === 'all' && viewer.role !== 'admin') {
    throw new AppError('VALIDATION_ERROR', 'Only admins can register endpoints for all swaps', {
      field: 'scope',
      status: 403,
      retryable: false,
    });
  }
  const target = await checkWebhookTarget(input.url, ctx.config.webhooks);
  const [owned] = await ctx.db
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.ownerId, viewer.userId));
  if ((owned?.n ?? 0) >= MAX_ENDPOINTS_PER_OWNER) {
    throw new AppError('VALIDATION_ERROR', `At most ${MAX_ENDPOINTS_PER_OWNER} webhook endpoints per account`, {
      field: 'url',
      status: 409,
      retryable: false,
    });
  }
  const secret = newSecret();
  const [row] = await ctx.db
    .insert(webhookEndpoints)
    .values({
      id: newWebhookEndpointId(),
      ownerId: viewer.userId,
      scope: input.scope,
      url: target.url.toString(),
      description: input.description || null,
      secret,
    })
    .returning();
  if (!row) throw new AppError('INTERNAL_ERROR', 'Webhook endpoint not stored');
  return { endpoint: presentEndpoint(row, viewer.email), secret };
}

export async function deleteWebhookEndpoint(ctx: AppContext, viewer: Viewer, input: WebhookEndpointInput) {
  const endpoint = await endpointFor(ctx, viewer, input.endpointId);
  await ctx.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
  return { deleted: endpoint.id };
}

/** A new secret, returned this once; the old one keeps signing beside it for a day so receivers can switch. */
export async function rotateWebhookSecret(ctx: AppContext, viewer: Viewer, input: WebhookEndpointInput) {
  const endpoint = await endpointFor(ctx, viewer, input.endpointId);
  const secret = newSecret();
  await ctx.db
    .update(webhookEndpoints)
    .set({
      secret,
      previousSecret: endpoint.secret,
      previousSecretExpiresAt: new Date(Date.now() + PREVIOUS_SECRET_GRACE_MS),
      updatedAt: sql`now()`,
    })
    .where(eq(webhookEndpoints.id, endpoint.id));
  return { endpointId: endpoint.id, secret };
}

/** Turns an endpoint disabled after days of failures back on; its failure clock starts afresh. */
export async function enableWebhookEndpoint(ctx: AppContext, viewer: Viewer, input: WebhookEndpointInput) {
  const endpoint = await endpointFor(ctx, viewer, input.endpointId);
  await ctx.db
    .update(webhookEndpoints)
    .set({ enabled: true, disabledReason: null, failingSince: null, updatedAt: sql`now()` })
    .where(eq(webhookEndpoints.id, endpoint.id));
  return { endpointId: endpoint.id, enabled: true };
}
