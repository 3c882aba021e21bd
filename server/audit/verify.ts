import type postgres from 'postgres';
import { auditHash } from './chain';

export type ChainBreak =
  | { id: number; problem: 'hash'; message: string }
  | { id: number; problem: 'prev_hash'; message: string };

export interface ChainReport {
  rows: number;
  firstId: number | null;
  lastId: number | null;
  broken: ChainBreak | null;
}

/** A row as postgres.js returns `select *`. */
export interface StoredAuditRow {
  id: string;
  at: Date | string;
  actor_user_id: string | null;
  actor_email: string | null;
  actor_role: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  before: unknown;
  after: unknown;
  request_id: string | null;
  client_address: string | null;
  user_agent: string | null;
  prev_hash: string | null;
  hash: string;
}

const BATCH = 2_000;

/**
 * Walks the chain in id order, a keyset page at a time, and stops at the first row whose hash is not
 * that of its fields, or whose prev_hash is not the hash of the row before it. The oldest row's
 * prev_hash is taken as given: after `audit_prune` it names the last row pruned.
 */
export async function verifyAuditChain(sql: postgres.Sql): Promise<ChainReport> {
  let rows = 0;
  let firstId: number | null = null;
  let lastId: number | null = null;
  let previousHash: string | null | undefined;
  for (let after = '0'; ; ) {
    const page = await sql<StoredAuditRow[]>`
      select * from audit_events where id > ${after} order by id limit ${BATCH}`;
    for (const row of page) {
      const id = Number(row.id);
      if (previousHash !== undefined && row.prev_hash !== previousHash) {
        const message = `row ${id}: prev_hash does not match the hash of the row before it (row ${lastId}); a row was changed, removed or inserted there`;
        return { rows, firstId, lastId, broken: { id, problem: 'prev_hash', message } };
      }
      const expected = auditHash({
        id,
        at: new Date(row.at),
        actorUserId: row.actor_user_id,
        actorEmail: row.actor_email,
        actorRole: row.actor_role,
        action: row.action,
        targetType: row.target_type,
        targetId: row.target_id,
        before: row.before,
        after: row.after,
        requestId: row.request_id,
        clientAddress: row.client_address,
        userAgent: row.user_agent,
        prevHash: row.prev_hash,
      });
      if (expected !== row.hash) {
        const message = `row ${id}: its fields no longer hash to the hash stored with it; the row was changed`;
        return { rows, firstId, lastId, broken: { id, problem: 'hash', message } };
      }
      rows++;
      firstId ??= id;
      lastId = id;
      previousHash = row.hash;
    }
    if (page.length < BATCH) return { rows, firstId, lastId, broken: null };
    after = String(lastId);
  }
}
