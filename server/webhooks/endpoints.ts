import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { authUsers, webhookEndpoints } from '../../drizzle/schema';
import { type AuditEntry, NO_ORIGIN, recordAudit } from '../audit/record';
import type { Viewer } from '../auth/roles';
import type { AppContext } from '../context';
import { AppError, notFound } from '../errors';
import { newWebhookEndpointId } from '../ids';
import { currentViewer, type EndpointOwner, manageableBy, NO_OWNER, ownerBlock, ownerColumns } from './access';
import { checkWebhookTarget } from './guard';
import type { CreateWebhookEndpointInput, WebhookEndpointInput } from './schemas';

type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** How long a rotated-out secret still signs deliveries beside the new one. */
const PREVIOUS_SECRET_GRACE_MS = 24 * 3600_000;

/** `whsec_` and 24 random bytes in base64, the secret format Standard Webhooks libraries accept. */
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/**
 * The endpoint, with its owner as they are now, if the viewer (as they are now) may manage it.
 * Someone else's endpoint reads as unknown rather than forbidden, so ids cannot be probed.
 */
export async function endpointFor(ctx: AppContext, viewer: Viewer, endpointId: string) {
  const current = await currentViewer(ctx.db, viewer, 'affiliate');
  const [row] = await ctx.db
    .select({ endpoint: webhookEndpoints, owner: ownerColumns })
    .from(webhookEndpoints)
    .leftJoin(authUsers, eq(authUsers.id, webhookEndpoints.ownerId))
    .where(and(eq(webhookEndpoints.id, endpointId), manageableBy(current)))
    .limit(1);
  if (!row) throw notFound('Webhook endpoint', 'endpointId');
  return { ...row.endpoint, ownerBlock: ownerBlock(row.endpoint.scope, row.owner ?? NO_OWNER) };
}

/**
 * `enabled` is whether anything is sent to it now: off after days of failures (Enable turns it back
 * on), or because its owner is no longer allowed what it receives (only their role can change that).
 */
const presentEndpoint = (row: EndpointRow, owner: EndpointOwner) => {
  const blocked = ownerBlock(row.scope, owner);
  return {
    id: row.id,
    url: row.url,
    scope: row.scope,
    description: row.description,
    lateEvents: row.lateEvents,
    enabled: row.enabled && !blocked,
    disabledReason: blocked ?? (row.enabled ? null : row.disabledReason),
    canEnable: !row.enabled && !blocked,
    failingSince: row.failingSince,
    ownerId: row.ownerId,
    ownerEmail: owner.email,
    createdAt: row.createdAt,
  };
};
export type WebhookEndpointSummary = ReturnType<typeof presentEndpoint>;

/** What the audit log keeps of an endpoint: never its secrets. */
const auditedFields = (row: EndpointRow) => ({
  url: row.url,
  scope: row.scope,
  description: row.description,
  ownerId: row.ownerId,
});

export async function listWebhookEndpoints(ctx: AppContext, viewer: Viewer) {
  const current = await currentViewer(ctx.db, viewer, 'affiliate');
  const rows = await ctx.db
    .select({ endpoint: webhookEndpoints, owner: ownerColumns })
    .from(webhookEndpoints)
    .leftJoin(authUsers, eq(authUsers.id, webhookEndpoints.ownerId))
    .where(manageableBy(current))
    .orderBy(desc(webhookEndpoints.createdAt));
  return rows.map((r) => presentEndpoint(r.endpoint, r.owner ?? NO_OWNER));
}

const tooMany = (max: number) =>
  new AppError(
    'VALIDATION_ERROR',
    `You already have ${max} webhook endpoints, the most one account may have; delete one first`,
    {
      field: 'url',
      status: 409,
      retryable: false,
    },
  );

/**
 * Registers an endpoint after checking where its URL resolves; the secret is returned this once.
 * The owner's row is locked while their endpoints are counted, so parallel creates cannot pass the cap together.
 */
export async function createWebhookEndpoint(
  ctx: AppContext,
  viewer: Viewer,
  input: CreateWebhookEndpointInput,
  origin = NO_ORIGIN,
) {
  const target = await checkWebhookTarget(input.url, ctx.config.webhooks);
  const max = ctx.config.webhooks.maxEndpointsPerOwner;
  const { row, owner } = await ctx.db.transaction(async (tx) => {
    const owner = await currentViewer(tx, viewer, 'affiliate', { lock: true });
    if (input.scope === 'all' && owner.role !== 'admin') {
      throw new AppError('VALIDATION_ERROR', 'Only admins can register endpoints for all swaps', {
        field: 'scope',
        status: 403,
        retryable: false,
      });
    }
    const [owned] = await tx
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.ownerId, viewer.userId));
    if ((owned?.n ?? 0) >= max) throw tooMany(max);
    const [created] = await tx
      .insert(webhookEndpoints)
      .values({
        id: newWebhookEndpointId(),
        ownerId: viewer.userId,
        scope: input.scope,
        url: target.url.toString(),
        description: input.description || null,
        lateEvents: input.lateEvents,
        secret: newSecret(),
      })
      .returning();
    if (created) {
      await recordAudit(tx, {
        action: 'webhook.create',
        actor: viewer,
        origin,
        targetId: created.id,
        after: auditedFields(created),
      });
    }
    return { row: created, owner };
  });
  if (!row) throw new AppError('INTERNAL_ERROR', 'Webhook endpoint not stored');
  return { endpoint: presentEndpoint(row, { ...owner, banned: false }), secret: row.secret };
}

export async function deleteWebhookEndpoint(
  ctx: AppContext,
  viewer: Viewer,
  input: WebhookEndpointInput,
  origin = NO_ORIGIN,
) {
  const endpoint = await endpointFor(ctx, viewer, input.endpointId);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    await recordAudit(tx, {
      action: 'webhook.delete',
      actor: viewer,
      origin,
      targetId: endpoint.id,
      before: auditedFields(endpoint),
    });
  });
  return { deleted: endpoint.id };
}

/** Changes one endpoint and records the change, in one transaction. */
const updateAudited = (
  ctx: AppContext,
  endpointId: string,
  values: Partial<typeof webhookEndpoints.$inferInsert>,
  entry: Omit<AuditEntry, 'targetId'>,
) =>
  ctx.db.transaction(async (tx) => {
    await tx
      .update(webhookEndpoints)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(webhookEndpoints.id, endpointId));
    await recordAudit(tx, { ...entry, targetId: endpointId });
  });

/** A new secret, returned this once; the old one keeps signing beside it for a day so receivers can switch. */
export async function rotateWebhookSecret(
  ctx: AppContext,
  viewer: Viewer,
  input: WebhookEndpointInput,
  origin = NO_ORIGIN,
) {
  const endpoint = await endpointFor(ctx, viewer, input.endpointId);
  const secret = newSecret();
  const previousSecretExpiresAt = new Date(Date.now() + PREVIOUS_SECRET_GRACE_MS);
  await updateAudited(
    ctx,
    endpoint.id,
    { secret, previousSecret: endpoint.secret, previousSecretExpiresAt },
    { action: 'webhook.rotate_secret', actor: viewer, origin, after: { url: endpoint.url, previousSecretExpiresAt } },
  );
  return { endpointId: endpoint.id, secret };
}

/** Turns an endpoint disabled after days of failures back on; its failure clock starts afresh. */
export async function enableWebhookEndpoint(
  ctx: AppContext,
  viewer: Viewer,
  input: WebhookEndpointInput,
  origin = NO_ORIGIN,
) {
  const endpoint = await endpointFor(ctx, viewer, input.endpointId);
  if (endpoint.ownerBlock) {
    throw new AppError('VALIDATION_ERROR', endpoint.ownerBlock, { field: 'endpointId', status: 409, retryable: false });
  }
  await updateAudited(
    ctx,
    endpoint.id,
    { enabled: true, disabledReason: null, failingSince: null },
    {
      action: 'webhook.update',
      actor: viewer,
      origin,
      before: { enabled: endpoint.enabled, disabledReason: endpoint.disabledReason },
      after: { enabled: true, disabledReason: null },
    },
  );
  return { endpointId: endpoint.id, enabled: true };
}
