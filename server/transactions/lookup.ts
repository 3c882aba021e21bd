import { asc, eq, getTableColumns, or, sql } from 'drizzle-orm';
import { transactions } from '../../drizzle/schema';
import type { AppContext } from '../context';
import type { Database } from '../db';
import { notFound } from '../errors';
import { perKey } from '../per-key';
import { readFences, readWithFallback } from '../reads';
import { hashKey } from './keys';
import { STATUS_FIELDS, type StatusFields } from './status-fields';

/** A row as read, with its version: Postgres' `xmin`, which every update of the row changes. */
type TransactionRow = typeof transactions.$inferSelect & { rowVersion: string };
/** The columns a status answer needs, with the row's version. */
export type StatusRow = StatusFields & { rowVersion: string };

const rowVersion = sql<string>`${transactions}.xmin::text`.as('row_version');
const versioned = { ...getTableColumns(transactions), rowVersion };
const statusSelection = {
  ...(Object.fromEntries(STATUS_FIELDS.map((field) => [field, transactions[field]])) as Pick<
    ReturnType<typeof getTableColumns<typeof transactions>>,
    (typeof STATUS_FIELDS)[number]
  >),
  rowVersion,
};

type Selection = typeof versioned | typeof statusSelection;

const prepareById = (db: Database, selection: Selection, name: string) =>
  db
    .select(selection)
    .from(transactions)
    .where(eq(transactions.id, sql.placeholder('id')))
    .limit(1)
    .prepare(name);

/**
 * A hash can sit on several rows (a client may report any hash on any swap it knows the id of), so the
 * answer is deterministic: a match the provider vouched for — a verified hash, or an inbound or outbound
 * hash the provider reported — wins over a merely reported one; among equals the oldest swap wins,
 * since a deposit exists only after the swap it pays was executed.
 */
const prepareByHash = (db: Database, selection: Selection, name: string) =>
  db
    .select(selection)
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
    .prepare(name);

interface Lookups<Row> {
  byId: { execute(params: { id: string }): Promise<Row[]> };
  byHash: { execute(params: { key: string | null }): Promise<Row[]> };
}

/** Status lookups are the hottest read: prepared once per process and database, whole rows and status rows apart. */
const statementsOn = perKey((db: Database) => ({
  // Each statement returns the rows of the selection it was prepared with.
  rows: {
    byId: prepareById(db, versioned, 'tx_by_id'),
    byHash: prepareByHash(db, versioned, 'tx_by_hash'),
  } as Lookups<TransactionRow>,
  status: {
    byId: prepareById(db, statusSelection, 'tx_status_by_id'),
    byHash: prepareByHash(db, statusSelection, 'tx_status_by_hash'),
  } as Lookups<StatusRow>,
}));
const statements = (ctx: AppContext) => statementsOn(ctx.db);

function lookUp<Row>(lookups: Lookups<Row>, by: { transactionId?: string; hash?: string }): Promise<Row> {
  const found = by.transactionId
    ? lookups.byId.execute({ id: by.transactionId })
    : by.hash
      ? lookups.byHash.execute({ key: hashKey(by.hash) })
      : Promise.resolve([]);
  return found.then(([row]) => {
    if (!row) throw notFound('Transaction', by.transactionId ? 'transactionId' : 'hash');
    return row;
  });
}

/** The hottest read of the worker too: one prepared statement per process. */
export async function transactionById(ctx: AppContext, id: string): Promise<TransactionRow | undefined> {
  const [row] = await statements(ctx).rows.byId.execute({ id });
  return row;
}

/** The whole row, by id or by any of its hashes. */
export const findTransaction = (ctx: AppContext, by: { transactionId?: string; hash?: string }) =>
  lookUp(statements(ctx).rows, by);

/**
 * Only what a status answer is made of, by id or by any of its hashes, read where `ctx.reads` says (a
 * replica misses a row it has not replayed yet: then the primary), and whether a replica answered.
 */
export async function findTransactionStatus(
  ctx: AppContext,
  by: { transactionId?: string; hash?: string },
): Promise<{ row: StatusRow; fromReplica: boolean }> {
  if (!ctx.reads.replicated) return { row: await lookUp(statements(ctx).status, by), fromReplica: false };
  const { result, target } = await readWithFallback(ctx.reads, (on) => lookUp(statementsOn(on.db).status, by), {
    fences: by.transactionId ? [readFences.transaction(by.transactionId)] : [],
    // Found by hash: the swap is known only now, and its own changes are what the answer must reflect.
    fencesOf: (row) => (by.transactionId ? [] : [readFences.transaction(row.id)]),
  });
  return { row: result, fromReplica: target.replica };
}

/** The status columns of one row by id; undefined once it is gone. `catchUp`: may come from the replica. */
export async function transactionStatusById(
  ctx: AppContext,
  id: string,
  { catchUp = false } = {},
): Promise<StatusRow | undefined> {
  if (!catchUp) return (await statements(ctx).status.byId.execute({ id }))[0];
  const { result } = await readWithFallback(
    ctx.reads,
    async (on) => (await statementsOn(on.db).status.byId.execute({ id }))[0],
    { fences: [readFences.transaction(id)], missed: (row) => !row },
  );
  return result;
}
