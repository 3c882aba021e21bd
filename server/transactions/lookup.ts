import { asc, eq, getTableColumns, or, sql } from 'drizzle-orm';
import { transactions } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { notFound } from '../errors';
import { perKey } from '../per-key';
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

const prepareById = (ctx: AppContext, selection: Selection, name: string) =>
  ctx.db
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
const prepareByHash = (ctx: AppContext, selection: Selection, name: string) =>
  ctx.db
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

/** Status lookups are the hottest read: prepared once per process, whole rows and status rows apart. */
const statements = perKey((ctx: AppContext) => ({
  // Each statement returns the rows of the selection it was prepared with.
  rows: {
    byId: prepareById(ctx, versioned, 'tx_by_id'),
    byHash: prepareByHash(ctx, versioned, 'tx_by_hash'),
  } as Lookups<TransactionRow>,
  status: {
    byId: prepareById(ctx, statusSelection, 'tx_status_by_id'),
    byHash: prepareByHash(ctx, statusSelection, 'tx_status_by_hash'),
  } as Lookups<StatusRow>,
}));

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

/** Only what a status answer is made of, by id or by any of its hashes. */
export const findTransactionStatus = (ctx: AppContext, by: { transactionId?: string; hash?: string }) =>
  lookUp(statements(ctx).status, by);

/** The status columns of one row by id; undefined once it is gone. */
export async function transactionStatusById(ctx: AppContext, id: string): Promise<StatusRow | undefined> {
  const [row] = await statements(ctx).status.byId.execute({ id });
  return row;
}
