import { count, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { transactions } from '../../drizzle/schema';
import type { AppContext } from '../context';
import type { TransactionSearchInput } from '../schemas/transactions';
import { searchCondition, searchOrder } from '../transactions/search';
import { type CsvExport, openCsvExport } from './stream';

const t = transactions;
const iso = (column: AnyPgColumn) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const decimal = (column: AnyPgColumn) => sql`trim_scale(${column})::text`;

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

const HEADER = Object.keys(TRANSACTION_EXPORT_COLUMNS);

/** `transactions-20261129T100511Z.csv` */
export const exportFilename = (kind: string, now: Date) =>
  `${kind}-${now.toISOString().slice(0, 19).replaceAll(/[-:]/g, '')}Z.csv`;

/**
 * Every transaction a dashboard search matches (its filters and sort; not its page), as CSV. The
 * search's own condition and order, read through a cursor rather than paged: an export has no cap.
 */
export async function exportTransactions(
  ctx: AppContext,
  input: TransactionSearchInput,
  { signal, now = new Date() }: { signal?: AbortSignal; now?: Date } = {},
): Promise<CsvExport> {
  const where = await searchCondition(ctx, input);
  const counted = ctx.db.select({ n: count() }).from(t).where(where).toSQL();
  const listed = ctx.db
    .select(TRANSACTION_EXPORT_COLUMNS)
    .from(t)
    .where(where)
    .orderBy(...searchOrder(input.sort))
    .toSQL();
  return openCsvExport(
    ctx.sql,
    {
      header: HEADER,
      count: (conn) => conn.unsafe(counted.sql, counted.params as never[]),
      rows: (conn) => conn.unsafe(listed.sql, listed.params as never[]),
    },
    exportFilename('transactions', now),
    signal,
  );
}
