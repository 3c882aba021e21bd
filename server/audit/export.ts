import type { AppContext } from '../context';
import { type CsvExport, exportFilename, openCsvExport } from '../exports/stream';
import { auditWhere } from './list';
import type { AuditFilter } from './schemas';

/** The export's columns, in order; the hashes let a reader check the chain of what they took away. */
export const AUDIT_EXPORT_HEADER = [
  'id',
  'at',
  'actor_user_id',
  'actor_email',
  'actor_role',
  'action',
  'target_type',
  'target_id',
  'before',
  'after',
  'request_id',
  'client_address',
  'user_agent',
  'prev_hash',
  'hash',
] as const;

/** Every event the audit page's filters match, newest first, as CSV. */
export function exportAuditEvents(
  ctx: AppContext,
  filter: AuditFilter,
  { signal, now = new Date() }: { signal?: AbortSignal; now?: Date } = {},
): Promise<CsvExport> {
  return openCsvExport(
    ctx.sql,
    {
      header: AUDIT_EXPORT_HEADER,
      count: (conn) => conn`select count(*) from audit_events where ${auditWhere(conn, filter)}`,
      rows: {
        batches: (conn) => conn`
        select id::text, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), actor_user_id, actor_email,
               actor_role, action, target_type, target_id, before::text, after::text, request_id, client_address,
               user_agent, prev_hash, hash
        from audit_events where ${auditWhere(conn, filter)}
        order by at desc, id desc`,
      },
    },
    exportFilename('audit', now),
    signal,
  );
}
