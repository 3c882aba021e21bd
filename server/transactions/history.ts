import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { transactions } from '../../drizzle/schema';
import { walletLookupKeys } from '../catalog/addresses';
import { assetIdsBySymbol } from '../catalog/asset-ids';
import { getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import { AppError, validationError } from '../errors';
import { offsetOf, type Paginated } from '../schemas/common';
import type { HistoryFilter } from '../schemas/transactions';
import { presentHistoryItem } from './present';
import { identifiedBy } from './search';
import { TX_STATUSES, type TxStatus } from './statuses';

/**
 * History reads only what its page needs, and its `total` stays exact without counting rows:
 * - a wallet, a transaction id, or a `query` naming an id, lock id, hash or wallet: few rows, each
 *   side read through its own index and counted there;
 * - everything else (no filter, statuses, a referral code, a `query` naming a provider or a symbol,
 *   resolved through the catalog to asset ids): each is a cell set of the swap counters, kept exact
 *   with the rows (server/rollups/swaps.ts). A term that names several kinds at once is counted as
 *   disjoint parts, so no swap is counted twice.
 * Pages merge index scans, each cut at the page's end: one per status, asset, provider, code or side.
 */

/** A column by its bare name: the same in `transactions`, the counters and their deltas. */
const column = (name: string) => sql.raw(`"${name}"`);
const intArray = (values: number[]) => sql`${`{${values.join(',')}}`}::int[]`;
const statusArray = (values: readonly TxStatus[]) => sql`${`{${values.join(',')}}`}::transaction_status[]`;

/** What a `query` term can name; each kind has an index of its own. */
interface Term {
  text: string;
  provider: string;
  /** Catalog assets whose symbol contains the term. */
  assetIds: number[];
  /** A transaction id, lock id, one of its hashes, or a wallet on either side. */
  identity: SQL;
}

async function resolveTerm(ctx: AppContext, search: string | undefined): Promise<Term | undefined> {
  const text = search?.trim();
  if (!text) return undefined;
  return {
    text,
    provider: text.toUpperCase(),
    assetIds: await assetIdsBySymbol(ctx, text),
    identity: identifiedBy(text),
  };
}

/** Swaps of the term's provider or from or to one of its assets: the part of a term the counters count. */
const broad = (term: Term) =>
  sql`(${column('provider')} = ${term.provider} or coalesce(${column('src_asset_id')}, 0) = any(${intArray(term.assetIds)})
    or coalesce(${column('dst_asset_id')}, 0) = any(${intArray(term.assetIds)}))`;
const codeIs = (code: string) => sql`coalesce(${column('referral_code')} = ${code}, false)`;
const termMatches = (term: Term) => sql`(${term.identity} or ${broad(term)} or ${codeIs(term.text)})`;

/** The statuses a filter admits; undefined when any. */
function statusesOf(filter: HistoryFilter): TxStatus[] | undefined {
  const listed = filter.statuses?.length ? [...new Set(filter.statuses)] : undefined;
  return filter.finalizedOnly ? (listed ?? [...TX_STATUSES]).filter((s) => s !== 'PENDING') : listed;
}

const statusIn = (statuses: TxStatus[] | undefined) =>
  statuses === undefined ? sql`true` : sql`${column('status')} = any(${statusArray(statuses)})`;

/** Every filter but the wallet one, as one predicate on `transactions`. */
function historyWhere(filter: HistoryFilter, term: Term | undefined): SQL | undefined {
  const where: SQL[] = [];
  const statuses = statusesOf(filter);
  if (statuses) where.push(statusIn(statuses));
  if (filter.referralCode) where.push(eq(transactions.referralCode, filter.referralCode));
  if (filter.transactionId) where.push(eq(transactions.id, filter.transactionId));
  if (term) where.push(termMatches(term));
  return where.length ? and(...where) : undefined;
}

/** Cells of a counter table matching `where`, with the deltas not folded into it yet. */
const counted = (table: 'swap_counts' | 'referral_swap_counts', where: SQL) =>
  sql`(select coalesce(sum(swaps), 0) from (
    select swaps from ${sql.raw(table)} where ${where}
    union all select swaps from swap_rollup_deltas where ${where}) cells)`;

const rowCount = (where: SQL) => sql`(select count(*) from ${transactions} where ${where})`;

/** The exact size of a history with no wallet and no transaction id, from the counters. */
function broadTotal(filter: HistoryFilter, term: Term | undefined): SQL {
  const statuses = statusIn(statusesOf(filter));
  const code = filter.referralCode;
  if (!term) {
    return code
      ? counted('referral_swap_counts', and(codeIs(code), statuses) as SQL)
      : counted('swap_counts', statuses);
  }
  if (code) {
    if (code === term.text) return counted('referral_swap_counts', and(codeIs(code), statuses) as SQL);
    // The code's swaps the term names by provider or asset, plus those it names otherwise.
    return sql`${counted('referral_swap_counts', and(codeIs(code), statuses, broad(term)) as SQL)}
      + ${rowCount(sql`${term.identity} and ${codeIs(code)} and ${statuses} and not ${broad(term)}`)}`;
  }
  // Disjoint parts: by provider or asset; else by the code the term spells; else by identity.
  return sql`${counted('swap_counts', and(statuses, broad(term)) as SQL)}
    + ${counted('referral_swap_counts', sql`${codeIs(term.text)} and ${statuses} and not ${broad(term)}`)}
    + ${rowCount(sql`${term.identity} and ${statuses} and not (${broad(term)} or ${codeIs(term.text)})`)}`;
}

/**
 * Index-ordered sources whose union is exactly the filtered history, and the filter each must still
 * pass. Without a wallet or a transaction id.
 */
function broadBranches(filter: HistoryFilter, term: Term | undefined): { branches: SQL[]; rest: SQL | undefined } {
  const statuses = statusesOf(filter);
  if (filter.transactionId) {
    return { branches: [sql`${column('id')} = ${filter.transactionId}`], rest: historyWhere(filter, term) };
  }
  if (filter.referralCode) {
    return {
      branches: [sql`${column('referral_code')} = ${filter.referralCode}`],
      rest: and(statusIn(statuses), term && termMatches(term)),
    };
  }
  if (term) {
    return {
      branches: [
        sql`${column('provider')} = ${term.provider}`,
        ...term.assetIds.flatMap((id) => [
          sql`${column('src_asset_id')} = ${id}`,
          sql`${column('dst_asset_id')} = ${id}`,
        ]),
        sql`${column('referral_code')} = ${term.text}`,
        term.identity,
      ],
      rest: statusIn(statuses),
    };
  }
  if (statuses) return { branches: statuses.map((s) => sql`${column('status')} = ${s}`), rest: undefined };
  return { branches: [sql`true`], rest: undefined };
}

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
  sql`(${column('created_at')}, ${column('id')}) < (${position.createdAt}::timestamptz, ${position.id})`;

/**
 * The positions of one page: each branch an index scan in page order, cut at the page's end, then
 * merged without duplicates. A page in the older half is read from the oldest end, so page 200 of
 * 200 costs what page 1 does.
 */
async function pagePositions(
  ctx: AppContext,
  filter: HistoryFilter,
  branches: SQL[],
  rest: SQL | undefined,
  total: number,
): Promise<Position[]> {
  const cursor = filter.cursor ? decodeCursor(filter.cursor) : undefined;
  const offset = offsetOf(filter);
  const end = Math.min(offset + filter.perPage, total);
  const fromOldest = !cursor && offset > total / 2;
  if (offset >= total && !cursor) return [];
  // With a cursor one row more tells whether another page follows.
  const take = cursor ? filter.perPage + 1 : fromOldest ? end - offset : filter.perPage;
  const reach = cursor ? take : fromOldest ? total - offset : end;
  const direction = sql.raw(fromOldest ? 'asc' : 'desc');
  const order = sql`order by ${column('created_at')} ${direction}, ${column('id')} ${direction}`;
  const scans = branches.map(
    (branch) => sql`(select ${column('id')}, ${column('created_at')} from ${transactions}
      where ${and(branch, rest, cursor && after(cursor))} ${order} limit ${reach})`,
  );
  const rows = (await ctx.db.execute(sql`
    select id, created_at::text as created_text from (${sql.join(scans, sql` union `)}) page
    ${order} limit ${take} offset ${cursor ? 0 : fromOldest ? total - end : offset}`)) as unknown as {
    id: string;
    created_text: string;
  }[];
  const positions = rows.map((r) => ({ id: r.id, createdAt: r.created_text }));
  return fromOldest ? positions.reverse() : positions;
}

type WalletColumn = typeof transactions.walletKey | typeof transactions.recipientWalletKey;

/** "Sender or recipient" as an OR defeats both wallet indexes, so each side is its own index-only scan. */
async function walletTotal(ctx: AppContext, keys: string[], where: SQL | undefined) {
  const side = (c: WalletColumn) =>
    sql`(select ${column('id')} from ${transactions} where ${and(inArray(c, keys), where)})`;
  const [row] = (await ctx.db.execute(
    sql`select count(*)::int as n from (${side(transactions.walletKey)} union ${side(transactions.recipientWalletKey)}) matched`,
  )) as unknown as { n: number }[];
  return row?.n ?? 0;
}

async function pageOf(ctx: AppContext, filter: HistoryFilter): Promise<{ positions: Position[]; total: number }> {
  const term = await resolveTerm(ctx, filter.search);
  if (filter.addresses?.length) {
    const keys = [...new Set(filter.addresses.flatMap(walletLookupKeys))];
    const where = historyWhere(filter, term);
    const total = await walletTotal(ctx, keys, where);
    const branches = [inArray(transactions.walletKey, keys), inArray(transactions.recipientWalletKey, keys)];
    return { positions: await pagePositions(ctx, filter, branches, where, total), total };
  }
  const total = filter.transactionId
    ? sql`(select count(*) from ${transactions} where ${historyWhere(filter, term)})`
    : broadTotal(filter, term);
  const [row] = (await ctx.db.execute(sql`select (${total})::bigint::text as n`)) as unknown as { n: string }[];
  const exact = Number(row?.n ?? 0);
  const { branches, rest } = broadBranches(filter, term);
  return { positions: await pagePositions(ctx, filter, branches, rest, exact), total: exact };
}

/** The rows of a page's positions, read by primary key in one query (the deferred join). */
async function rowsAt(ctx: AppContext, positions: Position[]) {
  const ids = positions.map((p) => p.id);
  const rows = ids.length ? await ctx.db.select().from(transactions).where(inArray(transactions.id, ids)) : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
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
  const { positions, total } = await pageOf(ctx, filter);
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
