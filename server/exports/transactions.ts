import { and, count, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { transactions } from '../../drizzle/schema';
import type { AppContext } from '../context';
import type { TransactionSearchInput } from '../schemas/transactions';
import { searchCondition, searchOrder } from '../transactions/search';
import { type CsvAround, type CsvExport, exportFilename, openCsvExport } from './stream';

const t = transactions;
const iso = (column: AnyPgColumn) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const decimal = (column: AnyPgColumn) => sql`trim_scale(${column})::text`;

/**
 * A value as `csvCell` writes it, made in SQL for COPY: a would-be formula (`= + - @`, tab, CR first)
 * gets a leading `'`, and an empty text is null (COPY would write `""`). `csvCell` leaves it as it is.
 */
const FORMULA_START = sql.raw(String.raw`'^([=+@\t\r-])', '''\1'`);
export const csvText = (value: SQL) => sql`nullif(regexp_replace((${value})::text, ${FORMULA_START}), '')`;
const csvColumns = (columns: Record<string, SQL>) =>
  Object.fromEntries(Object.entries(columns).map(([name, value]) => [name, csvText(value)]));

/** The export's columns, in order (README: "Exports"); every value is read as text, exactly as stored. */
export const TRANSACTION_EXPORT_COLUMNS = {
  id: sql`${t.id}`,
  created_at: iso(t.createdAt),
  finalized_at: iso(t.finalizedAt),
  provider: sql`${t.provider}`,
  status: sql`${t.status}::text`,
  substatus: sql`${t.substatus}`,
  src_chain: sql`${t.srcChain}`,
  src_asset: sql`${t.srcAsset}->>'symbol'`,
  src_asset_address: sql`${t.srcAsset}->>'contract'`,
  src_amount: sql`${t.srcAmount}`,
  dst_chain: sql`${t.dstChain}`,
  dst_asset: sql`${t.dstAsset}->>'symbol'`,
  dst_asset_address: sql`${t.dstAsset}->>'contract'`,
  dst_amount: sql`${t.dstAmount}`,
  amount_usd: decimal(t.amountUsd),
  fee_usd: decimal(t.feeUsd),
  hash: sql`nullif(${t.hash}, '')`,
  inbound_hash: sql`nullif(${t.inboundHash}, '')`,
  outbound_hash: sql`${t.outboundHash}`,
  wallet: sql`${t.walletAddress}`,
  recipient_wallet: sql`${t.recipientWalletAddress}`,
  referral_code: sql`${t.referralCode}`,
} satisfies Record<string, SQL>;

export const TRANSACTION_EXPORT_HEADER = Object.keys(TRANSACTION_EXPORT_COLUMNS);
const HEADER = TRANSACTION_EXPORT_HEADER;

/** How a caller narrows and reshapes the export: a scope of its own, columns ahead of the export's, its own order. */
export interface ExportShape {
  extra?: SQL;
  /** Read as they are, for `around` to reshape (its records are made safe as they are written): not with COPY. */
  leading?: Record<string, SQL>;
  order?: (SQL | AnyPgColumn)[];
}

/** The export's two statements: how many rows, and the rows in the search's order (or `order`). */
export async function transactionExportQuery(
  ctx: AppContext,
  input: TransactionSearchInput,
  { extra, leading = {}, order }: ExportShape = {},
) {
  const where = and(await searchCondition(ctx, input), extra);
  return {
    count: ctx.db.select({ n: count() }).from(t).where(where).toSQL(),
    rows: ctx.db
      .select({ ...leading, ...csvColumns(TRANSACTION_EXPORT_COLUMNS) })
      .from(t)
      .where(where)
      .orderBy(...(order ?? searchOrder(input.sort)))
      .toSQL(),
  };
}

/**
 * Every transaction a dashboard search matches (its filters and sort; not its page), narrowed by
 * `extra` where a caller has a scope of its own (an affiliate's credited swaps), as CSV. The
 * search's own condition and order, read through a cursor rather than paged: an export has no cap.
 */
export async function exportTransactions(
  ctx: AppContext,
  input: TransactionSearchInput,
  {
    signal,
    now = new Date(),
    filename = exportFilename('transactions', now),
    around,
    header = HEADER,
    ...shape
  }: ExportShape & {
    signal?: AbortSignal;
    now?: Date;
    filename?: string;
    /** With `leading` columns, what the rows become (stream.ts), under `header`. */
    around?: CsvAround;
    header?: readonly string[];
  } = {},
): Promise<CsvExport> {
  const query = await transactionExportQuery(ctx, input, shape);
  return openCsvExport(
    ctx.sql,
    {
      header,
      count: (conn) => conn.unsafe(query.count.sql, query.count.params as never[]),
      rows: around
        ? { batches: (conn) => conn.unsafe(query.rows.sql, query.rows.params as never[]) }
        : { copy: query.rows },
      around,
    },
    filename,
    signal,
  );
}
