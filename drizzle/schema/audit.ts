import { sql } from 'drizzle-orm';
import { bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Staff actions, append-only (a trigger refuses UPDATE and DELETE; retention through `audit_prune`)
 * and hash-chained: each row's `hash` covers its fields and `prev_hash`, the hash of the row before.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Null for a failed sign-in: `actorEmail` is then the address tried. */
    actorUserId: text('actor_user_id'),
    actorEmail: text('actor_email'),
    /** The role at the time of the action. */
    actorRole: text('actor_role'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    requestId: text('request_id'),
    clientAddress: text('client_address'),
    userAgent: text('user_agent'),
    prevHash: text('prev_hash'),
    hash: text('hash').notNull(),
  },
  (t) => [
    index('audit_events_at_idx').on(t.at, t.id),
    index('audit_events_actor_idx').on(t.actorUserId, t.at, t.id),
    index('audit_events_actor_email_idx').on(sql`lower(${t.actorEmail})`, t.at, t.id),
    index('audit_events_action_idx').on(t.action, t.at, t.id),
    index('audit_events_target_idx').on(t.targetType, t.targetId, t.at, t.id),
  ],
);
