import type postgres from 'postgres';
import type { z } from 'zod';
import type { AppContext } from '../context';
import { decodeCursor, encodeCursor } from '../keyset-cursor';
import type { ChainedFields } from './chain';
import type { AuditFilter, AuditListInput, failedSignInsInput } from './schemas';
import { AUDIT_PAGE_SIZE } from './schemas';

/** As selected below: the chained fields but the chain itself, the time as text for the cursor. */
interface StoredRow extends Omit<ChainedFields, 'id' | 'at' | 'before' | 'after' | 'prevHash'> {
  id: string;
  at: string;
  atText: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

const AUDIT_COLUMNS = (sql: postgres.Sql) => sql`
  id::text as id, at, at::text as "atText", actor_user_id as "actorUserId", actor_email as "actorEmail",
  actor_role as "actorRole", action, target_type as "targetType", target_id as "targetId", before, after,
  request_id as "requestId", client_address as "clientAddress", user_agent as "userAgent"`;

/** The filters as one condition; an actor with an @ is an email (matched case-insensitively), else a user id. */
export function auditWhere(sql: postgres.Sql, filter: AuditFilter) {
  const parts = [
    filter.actor
      ? filter.actor.includes('@')
        ? sql`lower(actor_email) = ${filter.actor.toLowerCase()}`
        : sql`actor_user_id = ${filter.actor}`
      : null,
    filter.action ? sql`action = ${filter.action}` : null,
    filter.targetType ? sql`target_type = ${filter.targetType}` : null,
    filter.targetId ? sql`target_id = ${filter.targetId}` : null,
    filter.from ? sql`at >= ${filter.from.toISOString()}` : null,
    filter.to ? sql`at < ${filter.to.toISOString()}` : null,
  ].filter((part) => part !== null);
  return parts.reduce((all, part) => sql`${all} and ${part}`, sql`true`);
}

/** One page, newest first, by (at, id) keyset. */
export async function listAuditEvents(ctx: Pick<AppContext, 'sql'>, input: AuditListInput) {
  const { sql } = ctx;
  const limit = input.limit ?? AUDIT_PAGE_SIZE;
  const after = input.cursor ? decodeCursor(input.cursor) : undefined;
  const rows = await sql<StoredRow[]>`
    select ${AUDIT_COLUMNS(sql)} from audit_events
    where ${auditWhere(sql, input)}
      and ${after ? sql`(at, id) < (${after.createdAt}::timestamptz, ${after.id}::bigint)` : sql`true`}
    order by at desc, id desc
    limit ${limit + 1}`;
  const items = rows.slice(0, limit);
  const last = rows.length > limit ? items.at(-1) : undefined;
  return {
    items: items.map(({ atText: _, at, ...row }) => ({ ...row, at: new Date(at) })),
    nextCursor: last ? encodeCursor({ createdAt: last.atText, id: last.id }) : null,
  };
}

const WINDOW_HOURS = { '1h': 1, '24h': 24, '7d': 168 } as const;
const TOP = 10;

/** Failed sign-ins in the window, by address and by account tried: where guessing comes from, and at whom. */
export async function failedSignIns(
  ctx: Pick<AppContext, 'sql'>,
  input: z.output<typeof failedSignInsInput>,
  now = new Date(),
) {
  const { sql } = ctx;
  // A throttled event stands for the attempts it counts (throttled-sign-in.ts); any other for one.
  const ATTEMPTS = sql`coalesce(sum(coalesce((after->>'attempts')::int, 1)), 0)::int`;
  const since = new Date(now.getTime() - WINDOW_HOURS[input.window] * 3600_000);
  const counted = (column: postgres.PendingQuery<postgres.Row[]>) => sql<
    { key: string | null; attempts: number; last: string }[]
  >`
    select ${column} as key, ${ATTEMPTS} as attempts, max(at) as last
    from audit_events
    where action = 'auth.sign_in_failed' and at >= ${since.toISOString()}
    group by 1 order by attempts desc, last desc limit ${TOP}`;
  const [byAddress, byAccount, [total]] = await Promise.all([
    counted(sql`client_address`),
    counted(sql`lower(actor_email)`),
    sql<{ n: number }[]>`
      select ${ATTEMPTS} as n from audit_events where action = 'auth.sign_in_failed' and at >= ${since.toISOString()}`,
  ]);
  const present = (rows: { key: string | null; attempts: number; last: string }[]) =>
    rows.map((r) => ({ key: r.key, attempts: r.attempts, last: new Date(r.last) }));
  return {
    window: input.window,
    since,
    total: total?.n ?? 0,
    byAddress: present(byAddress),
    byAccount: present(byAccount),
  };
}
