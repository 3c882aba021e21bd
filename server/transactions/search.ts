import { and, asc, count, desc, eq, gte, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import { type PgColumn, unionAll } from 'drizzle-orm/pg-core';
import { transactions } from '../../drizzle/schema';
import { walletLookupKeys } from '../catalog/addresses';
import { assetIdsOnChain } from '../catalog/asset-ids';
import type { AppContext } from '../context';
import type { Paginated } from '../schemas/common';
import { SEARCH_MATCHES_CAP, type TransactionSearchInput } from '../schemas/transactions';
import { hashKey } from './keys';
import { TX_STATUSES, type TxStatus } from './statuses';

type TransactionRow = typeof transactions.$inferSelect;

export const usd = (value: string | null) => (value === null ? null : Number(value));

/** Shorter hash prefixes match too much to be useful and too many index entries to be cheap. */
export const MIN_HASH_PREFIX = 8;

/** Above every string that begins with the prefix, byte by byte (the hash indexes use text_pattern_ops). */
const AFTER_EVERY_CHARACTER = '\u{10FFFF}';

/** The ways a term names a transaction, each through an index of its own. */
function identityAlternatives(term: string, { hashPrefix = false } = {}): SQL[] {
  const key = hashKey(term) ?? term;
  const wallets = walletLookupKeys(term);
  // A range, not LIKE: a generic plan cannot read an index for a pattern it does not know yet.
  const hashMatch = (column: PgColumn) =>
    hashPrefix && key.length >= MIN_HASH_PREFIX
      ? sql`(${column} ~>=~ ${key} and ${column} ~<~ ${key + AFTER_EVERY_CHARACTER})`
      : eq(column, key);
  return [
    eq(transactions.id, term),
    eq(transactions.lockId, term),
    hashMatch(transactions.hashKey),
    hashMatch(transactions.inboundHashKey),
    hashMatch(transactions.outboundHashKey),
    inArray(transactions.walletKey, wallets),
    inArray(transactions.recipientWalletKey, wallets),
  ];
}

/**
 * The statuses as literals, not parameters: a generic plan then still knows how rare each one is (pending
 * swaps are a sliver of a year) instead of guessing a quarter of the table, and walking the creation-order
 * index to the end when the other filters match nothing. Each set of statuses is a statement of its own (15 at most).
 */
function statusIn(statuses: readonly TxStatus[]): SQL {
  const known = statuses.filter((status) => TX_STATUSES.includes(status));
  return known.length ? sql`${transactions.status} in (${sql.raw(known.map((s) => `'${s}'`).join(', '))})` : sql`false`;
}

/**
 * The filters, and apart from them one OR of alternatives that each have an index (what the search
 * box names, else the chain's two sides): each alternative is read through its index, then merged.
 */
async function searchWhere(
  ctx: AppContext,
  input: TransactionSearchInput,
): Promise<{ where: SQL | undefined; alternatives: SQL[] | undefined }> {
  const where: SQL[] = [];
  let alternatives: SQL[] | undefined;
  const term = input.query?.trim();
  if (term) alternatives = identityAlternatives(term, { hashPrefix: true });
  if (input.statuses?.length) where.push(statusIn(input.statuses));
  if (input.provider) where.push(eq(transactions.provider, input.provider.toUpperCase()));
  if (input.chain) {
    // Through the catalog's assets of the chain, so each side is an index of its own.
    const ids = await assetIdsOnChain(ctx, input.chain);
    if (alternatives) {
      where.push(
        ids.length
          ? (or(inArray(transactions.srcAssetId, ids), inArray(transactions.dstAssetId, ids)) as SQL)
          : sql`false`,
      );
    } else {
      // A branch per asset and side: `in (…)` over (asset, created_at) comes out of creation order, and
      // a page of it sorted every swap of the chain (60 ms at 2M swaps).
      alternatives = ids.length
        ? ids.flatMap((id) => [eq(transactions.srcAssetId, id), eq(transactions.dstAssetId, id)])
        : [sql`false`];
    }
  }
  if (input.from) where.push(gte(transactions.createdAt, input.from));
  if (input.to) where.push(lte(transactions.createdAt, input.to));
  if (input.referralCode) where.push(eq(transactions.referralCode, input.referralCode));
  // Only pending swaps are ever stale (a final status clears the flag): the stale ones have an index of their own.
  if (input.stale === true) where.push(sql`(${transactions.status} = 'PENDING' and ${transactions.stale})`);
  if (input.stale === false) where.push(sql`not ${transactions.stale}`);
  // Late and lateness read the pending swaps that have a time (a partial index), never the whole table.
  if (input.late === true || input.sort.field === 'lateness') {
    where.push(sql`(${transactions.status} = 'PENDING' and ${transactions.lateAt} is not null)`);
  }
  if (input.late === true) where.push(sql`${transactions.lateAt} <= now()`);
  if (input.late === false) {
    where.push(sql`not (${transactions.status} = 'PENDING' and coalesce(${transactions.lateAt} <= now(), false))`);
  }
  return { where: where.length ? and(...where) : undefined, alternatives };
}

/** Every transaction the search matches, as one condition: for a reader that takes them all in one pass (exports). */
export async function searchCondition(ctx: AppContext, input: TransactionSearchInput): Promise<SQL | undefined> {
  const { where, alternatives } = await searchWhere(ctx, input);
  return and(where, alternatives && or(...alternatives));
}

const SORT_COLUMNS = {
  createdAt: transactions.createdAt,
  amountUsd: transactions.amountUsd,
  status: transactions.status,
  provider: transactions.provider,
  lateness: transactions.lateAt,
} as const;

/** Every sort reads an index in one direction or the other: (column, created_at, id). */
export function searchOrder({ field, direction }: TransactionSearchInput['sort']): SQL[] {
  const order = direction === 'asc' ? asc : desc;
  // Most late first (desc) is the earliest lateAt first: the late index (late_at, id) read forwards. The id
  // goes the way late_at does, so the order is that index's and a keyset position (late_at, id) > last holds.
  if (field === 'lateness') {
    const byLateAt = direction === 'desc' ? asc : desc;
    return [byLateAt(transactions.lateAt), byLateAt(transactions.id)];
  }
  const tail = [order(transactions.createdAt), order(transactions.id)];
  if (field === 'createdAt') return tail;
  // amount_usd is nullable; its index keeps nulls last going down, so first going up.
  const primary =
    field === 'amountUsd'
      ? sql`${transactions.amountUsd} ${sql.raw(direction === 'asc' ? 'asc nulls first' : 'desc nulls last')}`
      : order(SORT_COLUMNS[field]);
  return [primary, ...tail];
}

/** A pending swap past its late time, and by how much it is past its usual one (`expectedBy`). */
export function lateness(tx: Pick<TransactionRow, 'status' | 'expectedBy' | 'lateAt'>, now = Date.now()) {
  const late = tx.status === 'PENDING' && tx.lateAt !== null && tx.lateAt.getTime() <= now;
  return {
    late,
    overdueSeconds: late && tx.expectedBy ? Math.round((now - tx.expectedBy.getTime()) / 1000) : null,
  };
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
    ...lateness(tx),
    createdAt: tx.createdAt,
  };
}
export type TransactionSummary = ReturnType<typeof presentTransactionSummary>;

/**
 * Matches of an OR in creation order: each alternative read through its own index in that order and
 * cut at `reach`, then merged without duplicates (Merge Append under `distinct on`), so the merge pulls
 * from each only as far as the rows it gives, not `reach` from every one.
 */
function mergedAlternatives(
  ctx: AppContext,
  where: SQL | undefined,
  alternatives: SQL[],
  direction: 'asc' | 'desc',
  reach: number,
) {
  const order = direction === 'asc' ? asc : desc;
  const [first, second, ...rest] = alternatives.map((alternative) =>
    ctx.db
      .select({ id: transactions.id, createdAt: transactions.createdAt })
      .from(transactions)
      .where(and(where, alternative))
      .orderBy(order(transactions.createdAt), order(transactions.id))
      .limit(reach),
  );
  if (!first) throw new Error('mergedAlternatives: no alternative');
  const branches = (second ? unionAll(first, second, ...rest) : first).as('branches');
  return ctx.db
    .selectDistinctOn([branches.createdAt, branches.id], { id: branches.id, createdAt: branches.createdAt })
    .from(branches)
    .orderBy(order(branches.createdAt), order(branches.id));
}

/** A page in creation order when the search is an OR: its positions merged, then its rows by primary key. */
async function newestByAlternatives(
  ctx: AppContext,
  where: SQL | undefined,
  alternatives: SQL[],
  direction: 'asc' | 'desc',
  offset: number,
  take: number,
): Promise<TransactionRow[]> {
  const positions = await mergedAlternatives(ctx, where, alternatives, direction, offset + take)
    .limit(take)
    .offset(offset);
  return rowsInOrder(ctx, positions);
}

/**
 * A page's rows by primary key, in the order its positions came: the positions are read with the filters
 * and the sort from an index alone where one holds them (the late ones), so no heap row is fetched for a
 * match the page skips or the sort discards.
 */
async function rowsInOrder(ctx: AppContext, positions: { id: string }[]): Promise<TransactionRow[]> {
  const ids = positions.map((p) => p.id);
  if (!ids.length) return [];
  const rows = await ctx.db.select().from(transactions).where(inArray(transactions.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The dashboard counts matches up to here and shows "10,000+" beyond; pages reach no further. */
export const SEARCH_TOTAL_CAP = SEARCH_MATCHES_CAP;

export interface TransactionSearchPage extends Paginated<TransactionSummary> {
  /** `total` is the cap: more transactions match. */
  totalCapped: boolean;
  hasMore: boolean;
}

/**
 * The support search: one box for ids, hashes and wallets, plus filters, sorted and paginated in
 * Postgres. The count stops at the cap, so a broad search reads at most that many index entries.
 */
export async function searchTransactions(
  ctx: AppContext,
  input: TransactionSearchInput,
): Promise<TransactionSearchPage> {
  const { where, alternatives } = await searchWhere(ctx, input);
  const capped = (condition: SQL | undefined) =>
    ctx.db
      .select({ id: transactions.id })
      .from(transactions)
      .where(condition)
      .limit(SEARCH_TOTAL_CAP + 1);
  // An OR's matches merged in creation order up to the cap, so a broad one reads about the cap in all.
  const counting = alternatives
    ? ctx.db.select({ value: count() }).from(
        mergedAlternatives(ctx, where, alternatives, 'desc', SEARCH_TOTAL_CAP + 1)
          .limit(SEARCH_TOTAL_CAP + 1)
          .as('capped'),
      )
    : ctx.db.select({ value: count() }).from(capped(where).as('capped'));
  const offset = (input.page - 1) * input.perPage;
  const [rows, [counted]] = await Promise.all([
    alternatives && input.sort.field === 'createdAt'
      ? newestByAlternatives(ctx, where, alternatives, input.sort.direction, offset, input.perPage + 1)
      : ctx.db
          .select({ id: transactions.id })
          .from(transactions)
          .where(and(where, alternatives && or(...alternatives)))
          .orderBy(...searchOrder(input.sort))
          .limit(input.perPage + 1)
          .offset(offset)
          .then((positions) => rowsInOrder(ctx, positions)),
    counting,
  ]);
  const matched = counted?.value ?? 0;
  return {
    items: rows.slice(0, input.perPage).map(presentTransactionSummary),
    total: Math.min(matched, SEARCH_TOTAL_CAP),
    totalCapped: matched > SEARCH_TOTAL_CAP,
    hasMore: rows.length > input.perPage,
    page: input.page,
    perPage: input.perPage,
  };
}
