import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_MESSAGE_STATES, WEBHOOK_SCOPES } from '../../server/webhooks/schemas';
import { authUsers } from './auth';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A receiver URL registered from the dashboard: an affiliate's swaps (`affiliate`) or every swap (`all`, admins). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    scope: text('scope', { enum: WEBHOOK_SCOPES }).notNull(),
    url: text('url').notNull(),
    description: text('description'),
    /** `whsec_…`; kept readable because every delivery is signed with it. */
    secret: text('secret').notNull(),
    /** The secret before the last rotation, still signed with until it expires so receivers can switch over. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: at('previous_secret_expires_at'),
    enabled: boolean('enabled').notNull().default(true),
    /** Opted in to `transaction.late` events. */
    lateEvents: boolean('late_events').notNull().default(false),
    disabledReason: text('disabled_reason'),
    /** When the current run of failed attempts began; cleared by any delivered attempt. */
    failingSince: at('failing_since'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_owner_idx').on(t.ownerId), index('webhook_endpoints_scope_idx').on(t.scope)],
);

/** One event for one endpoint; its id is the `webhook-id` every attempt and redelivery carries. */
export const webhookMessages = pgTable(
  'webhook_messages',
  {
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    transactionId: text('transaction_id').notNull(),
    eventType: text('event_type', { enum: WEBHOOK_EVENT_TYPES }).notNull(),
    /** Digest of the status object sent, so a repeated fan-out of the same state sends nothing new. */
    digest: text('digest').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    state: text('state', { enum: WEBHOOK_MESSAGE_STATES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: at('created_at').notNull().defaultNow(),
    deliveredAt: at('delivered_at'),
  },
  (t) => [
    uniqueIndex('webhook_messages_dedupe_idx').on(t.endpointId, t.transactionId, t.eventType, t.digest),
    index('webhook_messages_transaction_idx').on(t.transactionId),
    index('webhook_messages_created_idx').on(t.createdAt),
  ],
);

/** Every delivery attempt: what the receiver answered and how long it took. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    messageId: text('message_id')
      .notNull()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    transactionId: text('transaction_id').notNull(),
    eventType: text('event_type', { enum: WEBHOOK_EVENT_TYPES }).notNull(),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    latencyMs: integer('latency_ms').notNull(),
    error: text('error'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_transaction_idx').on(t.transactionId, t.createdAt),
    index('webhook_deliveries_created_idx').on(t.createdAt),
  ],
);
