import { and, asc, count, desc, eq, gte, inArray, like, lte, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { transactions } from '../../drizzle/schema';
import { walletLookupKeys } from '../catalog/addresses';
import type { AppContext } from '../context';
import type { Paginated } from '../schemas/common';
import type { TransactionSearchInput } from '../schemas/transactions';
import { hashKey } from './keys';

type TransactionRow = typeof transactions.$inferSelect;

export const usd = (value: string | null) => (value === null ? null : Number(value));

/** Shorter hash prefixes match too much to be useful and too many index entries to be cheap. */
export const MIN_HASH_PREFIX = 8;

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A transaction named by its id, its lock id, any of its three hashes, or a wallet on either side.
 * With `hashPrefix`, a hash term of 8 or more characters also matches the hashes it begins.
 */
export function identifiedBy(term: string, { hashPrefix = false } = {}): SQL {
  const key = hashKey(term) ?? term;
  const wallets = walletLookupKeys(term);
  const hashMatch = (column: PgColumn) =>
    hashPrefix && key.length >= MIN_HASH_PREFIX ? like(column, `${escapeLike(key)}%`) : eq(column, key);
  return or(
    eq(transactions.id, term),
    eq(transactions.lockId, term),
    hashMatch(transactions.hashKey),
    hashMatch(transactions.inboundHashKey),
    hashMatch(transactions.outboundHashKey),
    inArray(transactions.walletKey, wallets),
    inArray(transactions.recipientWalletKey, wallets),
  ) as SQL;
}

function searchWhere(input: TransactionSearchInput): SQL | undefined {
  const where: SQL[] = [];
  const term = input.query?.trim();
  if (term) where.push(identifiedBy(term, { hashPrefix: true }));
  if (input.statuses?.length) where.push(inArray(transactions.status, input.statuses));
  if (input.provider) where.push(eq(transactions.provider, input.provider.toUpperCase()));
  if (input.chain)
    where.push(or(eq(transactions.srcChain, input.chain), eq(transactions.dstChain, input.chain)) as SQL);
  if (input.from) where.push(gte(transactions.createdAt, input.from));
  if (input.to) where.push(lte(transactions.createdAt, input.to));
  if (input.referralCode) where.push(eq(transactions.referralCode, input.referralCode));
  if (input.stale !== undefined) where.push(eq(transactions.stale, input.stale));
  return where.length ? and(...where) : undefined;
}

const SORT_COLUMNS = {
  createdAt: transactions.createdAt,
  amountUsd: transactions.amountUsd,
  status: transactions.status,
  provider: transactions.provider,
} as const;

function orderBy({ field, direction }: TransactionSearchInput['sort']): SQL[] {
  const column = SORT_COLUMNS[field];
  const primary = direction === 'asc' ? sql`${column} asc nulls last` : sql`${column} desc nulls last`;
  const tieBreak = direction === 'asc' ? asc(transactions.id) : desc(transactions.id);
  return field === 'createdAt' ? [primary, tieBreak] : [primary, desc(transactions.createdAt), tieBreak];
}

export function presentTransactionSummary(tx: TransactionRow) {
  return {
    id: tx.id,
    lockId: tx.lockId,
    status: tx.status,
    provider: tx.provider,
    srcChain: tx.srcChain,
    dstChain: tx.dstChain,
    srcSymbol: tx.srcAsset.symbol,
    dstSymbol: tx.dstAsset.symbol,
    srcAmount: tx.srcAmount,
    dstAmount: tx.dstAmount,
    amountUsd: usd(tx.amountUsd),
    hash: tx.hash,
    outboundHash: tx.outboundHash,
    walletAddress: tx.walletAddress,
    recipientWalletAddress: tx.recipientWalletAddress,
    referralCode: tx.referralCode,
    stale: tx.stale,
    createdAt: tx.createdAt,
  };
}
export type TransactionSummary = ReturnType<typeof presentTransactionSummary>;

/** The support search: one box for ids, hashes and wallets, plus filters, sorted and paginated in Postgres. */
export async function searchTransactions(
  ctx: AppContext,
  input: TransactionSearchInput,
): Promise<Paginated<TransactionSummary>> {
  const where = searchWhere(input);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(transactions)
      .where(where)
      .orderBy(...orderBy(input.sort))
      .limit(input.perPage)
      .offset((input.page - 1) * input.perPage),
    ctx.db.select({ value: count() }).from(transactions).where(where),
  ]);
  return {
    items: rows.map(presentTransactionSummary),
    total: total?.value ?? 0,
    page: input.page,
    perPage: input.perPage,
  };
}
