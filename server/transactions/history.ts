import { and, count, desc, eq, ilike, inArray, isNotNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { transactions } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { offsetOf, type Paginated } from '../schemas/common';
import type { HistoryFilter } from '../schemas/transactions';
import { hashKey } from './keys';
import { presentHistoryItem } from './present';

/** EVM wallets are stored lowercased; anything else verbatim (base58 and bech32 are case-sensitive or canonical). */
const walletLookupKeys = (address: string) => {
  const trimmed = address.trim();
  return /^0x[0-9a-fA-F]{40}$/.test(trimmed) ? [trimmed.toLowerCase()] : [trimmed, trimmed.toLowerCase()];
};

const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function historyWhere(filter: HistoryFilter): SQL | undefined {
  const where: SQL[] = [];
  if (filter.addresses?.length) {
    const keys = [...new Set(filter.addresses.flatMap(walletLookupKeys))];
    where.push(or(inArray(transactions.walletKey, keys), inArray(transactions.recipientWalletKey, keys)) as SQL);
  }
  if (filter.statuses?.length) where.push(inArray(transactions.status, filter.statuses));
  if (filter.finalizedOnly) where.push(ne(transactions.status, 'PENDING'));
  if (filter.referralCode) where.push(eq(transactions.referralCode, filter.referralCode));
  if (filter.transactionId) where.push(eq(transactions.id, filter.transactionId));
  if (filter.search) {
    const term = filter.search.trim();
    const key = hashKey(term) ?? term;
    where.push(
      or(
        eq(transactions.id, term),
        eq(transactions.lockId, term),
        eq(transactions.hashKey, key),
        eq(transactions.inboundHashKey, key),
        eq(transactions.outboundHashKey, key),
        inArray(transactions.walletKey, walletLookupKeys(term)),
        inArray(transactions.recipientWalletKey, walletLookupKeys(term)),
        eq(transactions.provider, term.toUpperCase()),
        ilike(sql`${transactions.srcAsset}->>'symbol'`, likePattern(term)),
        ilike(sql`${transactions.dstAsset}->>'symbol'`, likePattern(term)),
        and(isNotNull(transactions.referralCode), eq(transactions.referralCode, term)),
      ) as SQL,
    );
  }
  return where.length ? and(...where) : undefined;
}

/** Newest first with an exact total (spec §4.9). */
export async function listHistory(
  ctx: AppContext,
  filter: HistoryFilter,
): Promise<Paginated<ReturnType<typeof presentHistoryItem>>> {
  const where = historyWhere(filter);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(transactions)
      .where(where)
      .orderBy(desc(transactions.createdAt), desc(transactions.id))
      .limit(filter.perPage)
      .offset(offsetOf(filter)),
    ctx.db.select({ value: count() }).from(transactions).where(where),
  ]);
  return { items: rows.map(presentHistoryItem), total: total?.value ?? 0, page: filter.page, perPage: filter.perPage };
}
