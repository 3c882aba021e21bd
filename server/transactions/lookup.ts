import { asc, eq, getTableColumns, or, sql } from 'drizzle-orm';
import { transactions } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { notFound } from '../errors';
import { hashKey } from './keys';

/** A row as read, with its version: Postgres' `xmin`, which every update of the row changes. */
type TransactionRow = typeof transactions.$inferSelect & { rowVersion: string };

const versioned = {
  ...getTableColumns(transactions),
  rowVersion: sql<string>`${transactions}.xmin::text`.as('row_version'),
};

const prepared = new WeakMap<
  AppContext,
  { byId: ReturnType<typeof prepareById>; byHash: ReturnType<typeof prepareByHash> }
>();

const prepareById = (ctx: AppContext) =>
  ctx.db
    .select(versioned)
    .from(transactions)
    .where(eq(transactions.id, sql.placeholder('id')))
    .limit(1)
    .prepare('tx_by_id');

/**
 * A hash can sit on several rows (a client may report any hash on any swap it knows the id of), so the
 * answer is deterministic: a match the provider vouched for — a verified hash, or an inbound or outbound
 * hash the provider reported — wins over a merely reported one; among equals the oldest swap wins,
 * since a deposit exists only after the swap it pays was executed.
 */
const prepareByHash = (ctx: AppContext) =>
  ctx.db
    .select(versioned)
    .from(transactions)
    .where(
      or(
        eq(transactions.hashKey, sql.placeholder('key')),
        eq(transactions.inboundHashKey, sql.placeholder('key')),
        eq(transactions.outboundHashKey, sql.placeholder('key')),
      ),
    )
    .orderBy(
      sql`case when ${transactions.hashVerifiedAt} is not null
        or ${transactions.inboundHashKey} = ${sql.placeholder('key')}
        or ${transactions.outboundHashKey} = ${sql.placeholder('key')} then 0 else 1 end`,
      asc(transactions.createdAt),
      asc(transactions.id),
    )
    .limit(1)
    .prepare('tx_by_hash');

/** Status lookups are the hottest read: prepared once per process. */
function statements(ctx: AppContext) {
  let s = prepared.get(ctx);
  if (!s) {
    s = { byId: prepareById(ctx), byHash: prepareByHash(ctx) };
    prepared.set(ctx, s);
  }
  return s;
}

/** The hottest read of the worker too: one prepared statement per process. */
export async function transactionById(ctx: AppContext, id: string): Promise<TransactionRow | undefined> {
  const [row] = await statements(ctx).byId.execute({ id });
  return row;
}

export async function findTransaction(
  ctx: AppContext,
  by: { transactionId?: string; hash?: string },
): Promise<TransactionRow> {
  const s = statements(ctx);
  let row: TransactionRow | undefined;
  if (by.transactionId) [row] = await s.byId.execute({ id: by.transactionId });
  else if (by.hash) [row] = await s.byHash.execute({ key: hashKey(by.hash) });
  if (!row) throw notFound('Transaction', by.transactionId ? 'transactionId' : 'hash');
  return row;
}
