import { sql } from 'drizzle-orm';
import { auditEvents } from '../../drizzle/schema';
import type { Executor } from '../db';
import { AUDIT_ACTIONS, type AuditAction } from './catalog';
import { auditHash } from './chain';

/** Who acted, with the role they held at the time. */
export interface AuditActor {
  userId: string;
  email: string;
  role: string;
}

/** Where the request came from: its id, the client address by the rate limiter's rule, its user agent. */
export interface RequestOrigin {
  requestId: string | null;
  clientAddress: string | null;
  userAgent: string | null;
}

export const NO_ORIGIN: RequestOrigin = { requestId: null, clientAddress: null, userAgent: null };

export interface AuditEntry {
  action: AuditAction;
  /** Null only for a failed sign-in, where `actorEmail` is the address tried. */
  actor: AuditActor | null;
  actorEmail?: string;
  targetId?: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  origin?: RequestOrigin;
}

/** The value as jsonb gives it back (dates as strings, undefined keys gone), so the hash covers what is stored. */
const asStored = (value: Record<string, unknown> | null | undefined) =>
  value == null ? null : (JSON.parse(JSON.stringify(value)) as Record<string, unknown>);

/** Every audit insert takes this transaction-scoped advisory lock, so the chain has one head at a time. */
const CHAIN_LOCK = 4_706_003;

/**
 * Appends one event to the chain, inside `db`'s transaction when it is one: the event commits or
 * rolls back with the action it records. The chain lock is held until that transaction ends, so
 * call this as the action's last write.
 */
export async function recordAudit(db: Executor, entry: AuditEntry): Promise<{ id: number; hash: string }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CHAIN_LOCK})`);
    const [head] = await tx.execute<{ id: string; at: Date | string; prev: string | null }>(sql`
      select nextval(pg_get_serial_sequence('audit_events', 'id')) as id,
             date_trunc('milliseconds', clock_timestamp()) as at,
             (select hash from audit_events order by id desc limit 1) as prev`);
    if (!head) throw new Error('audit chain head not read');
    const origin = entry.origin ?? NO_ORIGIN;
    const row = {
      id: Number(head.id),
      at: new Date(head.at),
      actorUserId: entry.actor?.userId ?? null,
      actorEmail: entry.actor?.email ?? entry.actorEmail ?? null,
      actorRole: entry.actor?.role ?? null,
      action: entry.action,
      targetType: AUDIT_ACTIONS[entry.action],
      targetId: entry.targetId ?? null,
      before: asStored(entry.before),
      after: asStored(entry.after),
      requestId: origin.requestId,
      clientAddress: origin.clientAddress,
      userAgent: origin.userAgent,
      prevHash: head.prev,
    };
    const hash = auditHash(row);
    await tx.insert(auditEvents).values({ ...row, hash });
    return { id: row.id, hash };
  });
}
