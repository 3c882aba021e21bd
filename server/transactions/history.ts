import { and, count, desc, eq, ilike, inArray, isNotNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { union } from 'drizzle-orm/pg-core';
import { transactions } from '../../drizzle/schema';
import { walletLookupKeys } from '../catalog/addresses';
import { getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import { containsPattern } from '../db';
import { AppError } from '../errors';
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

/**
 * "Sender or recipient" as an OR defeats both wallet indexes (the bench measured deep pages reading
 * every row of the wallet), so each side is its own index scan, cut at the page's end, then merged.
 */
async function pageForWallets(ctx: AppContext, filter: HistoryFilter, keys: string[], where: SQL | undefined) {
  const end = offsetOf(filter) + filter.perPage;
  const side = (column: typeof transactions.walletKey | typeof transactions.recipientWalletKey) =>
    ctx.db
      .select({ id: transactions.id, createdAt: transactions.createdAt })
      .from(transactions)
      .where(and(inArray(column, keys), where))
      .orderBy(...newestFirst)
      .limit(end);
  const matching = (column: typeof transactions.walletKey | typeof transactions.recipientWalletKey) =>
    ctx.db
      .select({ id: transactions.id })
      .from(transactions)
      .where(and(inArray(column, keys), where));
  const [page, [counted]] = await Promise.all([
    union(side(transactions.walletKey), side(transactions.recipientWalletKey))
      .orderBy(desc(sql`created_at`), desc(sql`id`))
      .limit(filter.perPage)
      .offset(offsetOf(filter)),
    ctx.db
      .select({ value: count() })
      .from(union(matching(transactions.walletKey), matching(transactions.recipientWalletKey)).as('matched')),
  ]);
  const ids = page.map((r) => r.id);
  const rows = ids.length ? await ctx.db.select().from(transactions).where(inArray(transactions.id, ids)) : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { rows: ids.flatMap((id) => byId.get(id) ?? []), total: counted?.value ?? 0 };
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

/** Newest first with an exact total, so clients can show page counts. */
export async function listHistory(
  ctx: AppContext,
  filter: HistoryFilter,
  scopeFields: ScopeField[] = ['addresses', 'transactionId'],
): Promise<Paginated<ReturnType<typeof presentHistoryItem>>> {
  assertScoped(ctx, filter, scopeFields);
  const where = historyWhere(filter);
  const page = { page: filter.page, perPage: filter.perPage };
  const catalog = await getCatalog(ctx);
  const present = (row: typeof transactions.$inferSelect) => presentHistoryItem(row, catalog);
  if (filter.addresses?.length) {
    const keys = [...new Set(filter.addresses.flatMap(walletLookupKeys))];
    const { rows, total } = await pageForWallets(ctx, filter, keys, where);
    return { items: rows.map(present), total, ...page };
  }
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(transactions)
      .where(where)
      .orderBy(...newestFirst)
      .limit(filter.perPage)
      .offset(offsetOf(filter)),
    ctx.db.select({ value: count() }).from(transactions).where(where),
  ]);
  return { items: rows.map(present), total: total?.value ?? 0, ...page };
}
