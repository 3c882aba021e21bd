import { and, asc, count, desc, eq, ilike, inArray, isNotNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { union } from 'drizzle-orm/pg-core';
import { transactions } from '../../drizzle/schema';
import { walletLookupKeys } from '../catalog/addresses';
import { getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import { containsPattern } from '../db';
import { AppError, validationError } from '../errors';
import { offsetOf, type Paginated } from '../schemas/common';
import type { HistoryFilter } from '../schemas/transactions';
import { presentHistoryItem } from './present';
import { identifiedBy } from './search';

/** Every filter except the wallet one, which `listHistory` turns into two index scans. */
function historyWhere(filter: HistoryFilter): SQL | undefined {
  const where: SQL[] = [];
  if (filter.statuses?.length) where.push(inArray(transactions.status, filter.statuses));
  if (filter.finalizedOnly) where.push(ne(transactions.status, 'PENDING'));
  if (filter.referralCode) where.push(eq(transactions.referralCode, filter.referralCode));
  if (filter.transactionId) where.push(eq(transactions.id, filter.transactionId));
  if (filter.search) {
    const term = filter.search.trim();
    where.push(
      or(
        identifiedBy(term),
        eq(transactions.provider, term.toUpperCase()),
        ilike(sql`${transactions.srcAsset}->>'symbol'`, containsPattern(term)),
        ilike(sql`${transactions.dstAsset}->>'symbol'`, containsPattern(term)),
        and(isNotNull(transactions.referralCode), eq(transactions.referralCode, term)),
      ) as SQL,
    );
  }
  return where.length ? and(...where) : undefined;
}

const newestFirst = [desc(transactions.createdAt), desc(transactions.id)];

/** Where a page ends: the exact `created_at` (as Postgres prints it, microseconds kept) and id of its last row. */
interface Position {
  createdAt: string;
  id: string;
}

const CURSOR_SEPARATOR = '|';

const encodeCursor = (p: Position) => Buffer.from(`${p.createdAt}${CURSOR_SEPARATOR}${p.id}`).toString('base64url');

function decodeCursor(cursor: string): Position {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const at = text.lastIndexOf(CURSOR_SEPARATOR);
  const createdAt = text.slice(0, at);
  const id = text.slice(at + 1);
  if (at < 1 || !id || Number.isNaN(Date.parse(createdAt))) {
    throw validationError([{ code: 'VALIDATION_ERROR', field: 'cursor', message: 'not a cursor this API returned' }]);
  }
  return { createdAt, id };
}

/** Rows strictly after `position` in newest-first order. */
const after = (position: Position) =>
  sql`(${transactions.createdAt}, ${transactions.id}) < (${position.createdAt}::timestamptz, ${position.id})`;

const positionColumns = {
  id: transactions.id,
  sortedAt: transactions.createdAt,
  createdAt: sql<string>`${transactions.createdAt}::text`.as('created_text'),
};

type WalletColumn = typeof transactions.walletKey | typeof transactions.recipientWalletKey;

/**
 * The positions of one page of a wallet's swaps. "Sender or recipient" as an OR defeats both wallet
 * indexes, so each side is its own index-only scan, cut at the page's end, then merged. A page in
 * the older half is read from the oldest end, so page 200 of 200 costs what page 1 does.
 */
async function walletPagePositions(
  ctx: AppContext,
  filter: HistoryFilter,
  match: (side: WalletColumn) => SQL | undefined,
  total: number,
): Promise<Position[]> {
  const offset = offsetOf(filter);
  const end = Math.min(offset + filter.perPage, total);
  const fromOldest = !filter.cursor && offset > total / 2;
  if (offset >= total && !filter.cursor) return [];
  // With a cursor one row more tells whether another page follows.
  const take = filter.cursor ? filter.perPage + 1 : fromOldest ? end - offset : filter.perPage;
  const order = fromOldest ? [asc(transactions.createdAt), asc(transactions.id)] : newestFirst;
  const reach = filter.cursor ? take : fromOldest ? total - offset : end;
  const side = (column: WalletColumn) =>
    ctx.db
      .select(positionColumns)
      .from(transactions)
      .where(match(column))
      .orderBy(...order)
      .limit(reach);
  const direction = fromOldest ? 'asc' : 'desc';
  const positions = await union(side(transactions.walletKey), side(transactions.recipientWalletKey))
    .orderBy(sql.raw(`created_at ${direction}, id ${direction}`))
    .limit(take)
    .offset(filter.cursor ? 0 : fromOldest ? total - end : offset);
  return fromOldest ? positions.reverse() : positions;
}

async function walletTotal(ctx: AppContext, match: (side: WalletColumn) => SQL | undefined) {
  const matching = (column: WalletColumn) =>
    ctx.db.select({ id: transactions.id }).from(transactions).where(match(column));
  const [counted] = await ctx.db
    .select({ value: count() })
    .from(union(matching(transactions.walletKey), matching(transactions.recipientWalletKey)).as('matched'));
  return counted?.value ?? 0;
}

/** The rows of a page's positions, read by primary key in one query (the deferred join). */
async function rowsAt(ctx: AppContext, positions: Position[]) {
  const ids = positions.map((p) => p.id);
  const rows = ids.length ? await ctx.db.select().from(transactions).where(inArray(transactions.id, ids)) : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

async function pageForWallets(ctx: AppContext, filter: HistoryFilter, keys: string[], where: SQL | undefined) {
  const match = (column: WalletColumn) => and(inArray(column, keys), where);
  const cursor = filter.cursor ? decodeCursor(filter.cursor) : undefined;
  const matchPage = (column: WalletColumn) => and(match(column), cursor && after(cursor));
  const total = await walletTotal(ctx, match);
  const positions = await walletPagePositions(ctx, filter, matchPage, total);
  return { positions, total };
}

async function pageForAll(ctx: AppContext, filter: HistoryFilter, where: SQL | undefined) {
  const cursor = filter.cursor ? decodeCursor(filter.cursor) : undefined;
  const [positions, [counted]] = await Promise.all([
    ctx.db
      .select(positionColumns)
      .from(transactions)
      .where(and(where, cursor && after(cursor)))
      .orderBy(...newestFirst)
      .limit(cursor ? filter.perPage + 1 : filter.perPage)
      .offset(cursor ? 0 : offsetOf(filter)),
    ctx.db.select({ value: count() }).from(transactions).where(where),
  ]);
  return { positions, total: counted?.value ?? 0 };
}

/** The filters that narrow history to one person's swaps, as each interface names them. */
export type ScopeField = 'addresses' | 'transactionId';

/** With HISTORY_REQUIRE_SCOPE, an unscoped history (or one by referral code alone) is refused. */
function assertScoped(ctx: AppContext, filter: HistoryFilter, scopeFields: ScopeField[]) {
  if (!ctx.config.historyRequireScope || filter.addresses?.length || filter.transactionId) return;
  const message = `History must be filtered by ${scopeFields.join(' or ')} on this server`;
  const problems = scopeFields.map((field) => ({ code: 'VALIDATION_ERROR' as const, field, message }));
  throw new AppError('VALIDATION_ERROR', message, { problems });
}

export interface HistoryPage extends Paginated<ReturnType<typeof presentHistoryItem>> {
  /** Continues after this page's last row (`cursor`); null when nothing follows. */
  nextCursor: string | null;
  hasMore: boolean;
}

/**
 * Newest first with an exact total. By `page`, or by `cursor` (keyset: the rows after the last one
 * of the page that returned it, whatever was inserted meanwhile).
 */
export async function listHistory(
  ctx: AppContext,
  filter: HistoryFilter,
  scopeFields: ScopeField[] = ['addresses', 'transactionId'],
): Promise<HistoryPage> {
  assertScoped(ctx, filter, scopeFields);
  const where = historyWhere(filter);
  const { positions, total } = filter.addresses?.length
    ? await pageForWallets(ctx, filter, [...new Set(filter.addresses.flatMap(walletLookupKeys))], where)
    : await pageForAll(ctx, filter, where);
  const hasMore = filter.cursor ? positions.length > filter.perPage : filter.page * filter.perPage < total;
  const shown = positions.slice(0, filter.perPage);
  const last = shown.at(-1);
  const catalog = await getCatalog(ctx);
  const items = (await rowsAt(ctx, shown)).map((row) => presentHistoryItem(row, catalog));
  return {
    items,
    total,
    page: filter.page,
    perPage: filter.perPage,
    hasMore,
    nextCursor: hasMore && last ? encodeCursor(last) : null,
  };
}
