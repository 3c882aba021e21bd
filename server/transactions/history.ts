import { type getTableColumns, sql } from 'drizzle-orm';
import { transactions } from '../../drizzle/schema';
import { walletLookupKeys } from '../catalog/addresses';
import { assetIdsBySymbol } from '../catalog/asset-ids';
import { getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import { AppError, validationError } from '../errors';
import { decodeCursor, encodeCursor, type Position } from '../keyset-cursor';
import { perKey } from '../per-key';
import { PROVIDER_KEYS } from '../providers/keys';
import { offsetOf, type Paginated } from '../schemas/common';
import type { HistoryFilter } from '../schemas/transactions';
import { boundedRead, type ReadGuard, type RunStatement } from './bounded-reads';
import { hashKey } from './keys';
import { presentHistoryItem } from './present';
import { STATUS_FIELDS } from './status-fields';
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
 * The statements are built as text with numbered parameters: a public read builds several per request.
 */

/** A statement being written: its parameters, numbered in the order they are added. */
class Statement {
  readonly params: string[] = [];
  param(value: string | number): string {
    this.params.push(String(value));
    return `$${this.params.length}`;
  }
}

/** A Postgres array literal, as one text parameter. */
const arrayLiteral = (values: readonly (string | number)[]) =>
  `{${values.map((v) => `"${String(v).replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;

type Predicate = (s: Statement) => string;

const and = (...parts: (Predicate | undefined)[]): Predicate => {
  const present = parts.filter((p): p is Predicate => p !== undefined);
  return (s) => (present.length ? present.map((p) => `(${p(s)})`).join(' and ') : 'true');
};

/** What a `query` term can name; each kind has an index of its own. */
interface Term {
  text: string;
  /** The provider the term names, if any. */
  provider: string | undefined;
  /** Catalog assets whose symbol contains the term. */
  assetIds: number[];
  hashKey: string;
  walletKeys: string[];
}

async function resolveTerm(ctx: AppContext, search: string | undefined): Promise<Term | undefined> {
  const text = search?.trim();
  if (!text) return undefined;
  return {
    text,
    provider: PROVIDER_KEYS.find((key) => key === text.toUpperCase()),
    assetIds: await assetIdsBySymbol(ctx, text),
    hashKey: hashKey(text) ?? text,
    walletKeys: walletLookupKeys(text),
  };
}

/** A transaction id, lock id, one of its hashes, or a wallet on either side: each its own index. */
function identityBranches(term: Term): Predicate[] {
  return [
    (s) => `id = ${s.param(term.text)}`,
    (s) => `lock_id = ${s.param(term.text)}`,
    ...(['hash_key', 'inbound_hash_key', 'outbound_hash_key'] as const).map(
      (column): Predicate =>
        (s) =>
          `${column} = ${s.param(term.hashKey)}`,
    ),
    ...walletBranches(term.walletKeys),
  ];
}

/** One branch per key and side: with an equality each index scan runs in page order and stops at the page's end. */
const walletBranches = (keys: readonly string[]): Predicate[] =>
  keys.flatMap((key): Predicate[] => [
    (s) => `wallet_key = ${s.param(key)}`,
    (s) => `recipient_wallet_key = ${s.param(key)}`,
  ]);

const anyOf =
  (parts: Predicate[]): Predicate =>
  (s) =>
    parts.length ? parts.map((p) => `(${p(s)})`).join(' or ') : 'false';

/** The part of a term the counters count: its provider, or one of its assets on either side. */
function broadBranchesOf(term: Term): Predicate[] {
  return [
    ...(term.provider ? [(s: Statement) => `provider = ${s.param(term.provider as string)}`] : []),
    ...term.assetIds.flatMap((id): Predicate[] => [
      (s) => `src_asset_id = ${s.param(id)}`,
      (s) => `dst_asset_id = ${s.param(id)}`,
    ]),
  ];
}

/** Swaps of the term's provider or from or to one of its assets (as a filter on rows or counter cells). */
const broad = (term: Term): Predicate => anyOf(broadBranchesOf(term));
/** Not broad: a row whose asset id is null is not one of the term's assets either. */
const notBroad =
  (term: Term): Predicate =>
  (s) =>
    `not coalesce(${broad(term)(s)}, false)`;
const codeIs =
  (code: string): Predicate =>
  (s) =>
    `referral_code = ${s.param(code)}`;
/** Not the code: a swap without one is not it either. */
const codeIsNot =
  (code: string): Predicate =>
  (s) =>
    `referral_code is distinct from ${s.param(code)}`;
/** Every branch a term is read through: what it names broadly, as a code, and as an identity. */
const termBranches = (term: Term): Predicate[] => [
  ...broadBranchesOf(term),
  codeIs(term.text),
  ...identityBranches(term),
];
const termMatches = (term: Term): Predicate => anyOf(termBranches(term));

/** The statuses a filter admits; undefined when any. */
function statusesOf(filter: HistoryFilter): TxStatus[] | undefined {
  const listed = filter.statuses?.length ? [...new Set(filter.statuses)] : undefined;
  return filter.finalizedOnly ? (listed ?? [...TX_STATUSES]).filter((s) => s !== 'PENDING') : listed;
}

const statusIn = (statuses: TxStatus[] | undefined): Predicate | undefined =>
  statuses === undefined ? undefined : (s) => `status = any(${s.param(arrayLiteral(statuses))}::transaction_status[])`;

/** Every filter but the wallet one, as one predicate on `transactions`. */
function historyWhere(filter: HistoryFilter, term: Term | undefined): Predicate {
  return and(
    statusIn(statusesOf(filter)),
    filter.referralCode === undefined ? undefined : codeIs(filter.referralCode),
    filter.transactionId === undefined ? undefined : (s) => `id = ${s.param(filter.transactionId as string)}`,
    term && termMatches(term),
  );
}

/** Cells of a counter table matching `where`, with the deltas not folded into it yet. */
const counted =
  (table: 'swap_counts' | 'referral_swap_counts', where: Predicate): Predicate =>
  (s) => {
    const condition = where(s);
    return `(select coalesce(sum(swaps), 0) from (select swaps from ${table} where ${condition}
      union all select swaps from swap_rollup_deltas where ${condition}) cells)`;
  };

/**
 * Swaps with a wallet among `keys` on either side: a counter row per wallet and status, less the swaps
 * between two of the keys (each wallet's row counts them; read pair by pair, never a sender's every
 * cell), plus the deltas not folded yet.
 */
const walletTotal =
  (keys: readonly string[], statuses: Predicate | undefined): Predicate =>
  (s) => {
    const wallets = `${s.param(arrayLiteral(keys))}::text[]`;
    const status = statuses ? ` and (${statuses(s)})` : '';
    const others = (key: string) => keys.filter((other) => other !== key);
    const senders = keys.flatMap((key) => others(key).map(() => key));
    const between = senders.length
      ? `union all select -swaps from unnest(${s.param(arrayLiteral(senders))}::text[], ${s.param(arrayLiteral(keys.flatMap(others)))}::text[]) pair(sender, paid)
        join wallet_pair_counts on wallet_key = pair.sender and recipient_wallet_key = pair.paid${status}`
      : '';
    return `(select coalesce(sum(swaps), 0) from (select swaps from wallet_counts where wallet_key = any(${wallets})${status}
      ${between}
      union all select swaps from swap_rollup_deltas
        where (wallet_key = any(${wallets}) or recipient_wallet_key = any(${wallets}))${status}) cells)`;
  };

const rowCount =
  (where: Predicate): Predicate =>
  (s) =>
    `(select count(*) from transactions where ${where(s)})`;

/** Rows that some branch matches and `where` admits: each branch read through its own index, none counted twice. */
const unionCount =
  (branches: Predicate[], where: Predicate): Predicate =>
  (s) =>
    branches.length
      ? `(select count(*) from (${branches
          .map((branch) => `select id from transactions where (${branch(s)}) and (${where(s)})`)
          .join(' union ')}) matched)`
      : '0';

const plus =
  (...parts: Predicate[]): Predicate =>
  (s) =>
    parts.map((p) => p(s)).join(' + ');

/**
 * Swaps the term names only as an identity (not by provider, asset or code). A wallet's swaps come from
 * the wallet counters, so a wallet most swaps pay out to costs what any other does; that needs the term
 * to name no provider or asset (known here) and no used code (asked of the counters first).
 */
function identityTotal(term: Term, statuses: Predicate | undefined): Predicate {
  const everyRow = unionCount(identityBranches(term), and(statuses, notBroad(term), codeIsNot(term.text)));
  if (broadBranchesOf(term).length) return everyRow;
  const notWallet: Predicate = (s) => {
    const wallets = s.param(arrayLiteral(term.walletKeys));
    return `not (wallet_key = any(${wallets}::text[]) or recipient_wallet_key = any(${wallets}::text[]))`;
  };
  const byCounters = plus(
    walletTotal(term.walletKeys, statuses),
    unionCount(identityBranches({ ...term, walletKeys: [] }), and(statuses, notWallet)),
  );
  return (s) =>
    `(case when ${counted('referral_swap_counts', codeIs(term.text))(s)} = 0 then ${byCounters(s)} else ${everyRow(s)} end)`;
}

/** The exact size of a history with no wallet and no transaction id, from the counters. */
function broadTotal(filter: HistoryFilter, term: Term | undefined): Predicate {
  const statuses = statusIn(statusesOf(filter));
  const code = filter.referralCode;
  if (!term) {
    return code ? counted('referral_swap_counts', and(codeIs(code), statuses)) : counted('swap_counts', and(statuses));
  }
  if (code) {
    if (code === term.text) return counted('referral_swap_counts', and(codeIs(code), statuses));
    // The code's swaps the term names by provider or asset, plus those it names otherwise.
    return plus(
      counted('referral_swap_counts', and(codeIs(code), statuses, broad(term))),
      unionCount(identityBranches(term), and(codeIs(code), statuses, notBroad(term))),
    );
  }
  // Disjoint parts: by provider or asset; else by the code the term spells; else by identity.
  return plus(
    counted('swap_counts', and(statuses, broad(term))),
    counted('referral_swap_counts', and(codeIs(term.text), statuses, notBroad(term))),
    identityTotal(term, statuses),
  );
}

/**
 * Index-ordered sources whose union is exactly the filtered history, and the filter each must still
 * pass. Without a wallet. A term is one branch per thing it can name, never an OR in one scan: a
 * generic plan guesses an OR's share of the table from no value at all.
 */
function broadBranches(filter: HistoryFilter, term: Term | undefined): { branches: Predicate[]; rest: Predicate } {
  const statuses = statusIn(statusesOf(filter));
  if (filter.transactionId) {
    return { branches: [(s) => `id = ${s.param(filter.transactionId as string)}`], rest: historyWhere(filter, term) };
  }
  const code = filter.referralCode;
  if (term && code !== undefined) {
    // The code's swaps the term names by provider, asset or as the code: one pass over the code's index (a
    // branch per asset would each pass over it); those it names as an identity: by each identity's index.
    const named = code === term.text ? [] : broadBranchesOf(term);
    const byCode =
      code === term.text || named.length ? [and(codeIs(code), named.length ? anyOf(named) : undefined)] : [];
    return { branches: [...byCode, ...identityBranches(term).map((b) => and(b, codeIs(code)))], rest: and(statuses) };
  }
  if (term) return { branches: termBranches(term), rest: and(statuses) };
  if (code !== undefined) return { branches: [codeIs(code)], rest: and(statuses) };
  const listed = statusesOf(filter);
  if (listed) {
    return {
      branches: listed.map(
        (status): Predicate =>
          (s) =>
            `status = ${s.param(status)}`,
      ),
      rest: and(),
    };
  }
  return { branches: [() => 'true'], rest: and() };
}

/**
 * The positions of one page: each branch an index scan in page order, cut at the page's end, then
 * merged in order without duplicates (a merge that pulls from each scan only as far as the page, so a
 * deep page reads about offset + perPage entries in all, not that many per branch). A page in the
 * older half is read from the oldest end, so page 200 of 200 costs what page 1 does.
 */
async function pagePositions(
  run: RunStatement,
  filter: HistoryFilter,
  branches: Predicate[],
  rest: Predicate,
  total: number,
): Promise<Position[]> {
  const cursor = filter.cursor ? decodeCursor(filter.cursor) : undefined;
  const offset = offsetOf(filter);
  const end = Math.min(offset + filter.perPage, total);
  const fromOldest = !cursor && offset > total / 2;
  if ((offset >= total && !cursor) || !branches.length) return [];
  // With a cursor one row more tells whether another page follows.
  const take = cursor ? filter.perPage + 1 : fromOldest ? end - offset : filter.perPage;
  const reach = cursor ? take : fromOldest ? total - offset : end;
  const direction = fromOldest ? 'asc' : 'desc';
  const order = `order by created_at ${direction}, id ${direction}`;
  const s = new Statement();
  const after = cursor
    ? `and (created_at, id) < (${s.param(cursor.createdAt)}::timestamptz, ${s.param(cursor.id)})`
    : '';
  const scans = branches.map(
    (branch) =>
      `(select id, created_at from transactions where (${branch(s)}) and (${rest(s)}) ${after} ${order} limit ${reach})`,
  );
  const skip = cursor ? 0 : fromOldest ? total - end : offset;
  const rows = await run<{ id: string; created_text: string }[]>(
    `select id, created_at::text as created_text from (select distinct on (created_at, id) created_at, id
      from (${scans.join(' union all ')}) scanned ${order}) page limit ${take} offset ${skip}`,
    s.params,
  );
  const positions = rows.map((r) => ({ id: r.id, createdAt: r.created_text }));
  return fromOldest ? positions.reverse() : positions;
}

async function scalar(run: RunStatement, total: Predicate): Promise<number> {
  const s = new Statement();
  const [row] = await run<{ n: string }[]>(`select (${total(s)})::bigint::text as n`, s.params);
  return Number(row?.n ?? 0);
}

/** The total and the page; page 1 and cursor pages read newest first whatever the total, so both go at once. */
async function countedPage(
  run: RunStatement,
  filter: HistoryFilter,
  total: Predicate,
  branches: Predicate[],
  rest: Predicate,
): Promise<{ positions: Position[]; total: number }> {
  if (filter.cursor || filter.page === 1) {
    const [exact, positions] = await Promise.all([
      scalar(run, total),
      pagePositions(run, filter, branches, rest, Number.MAX_SAFE_INTEGER),
    ]);
    return { positions, total: exact };
  }
  const exact = await scalar(run, total);
  return { positions: await pagePositions(run, filter, branches, rest, exact), total: exact };
}

async function pageOf(
  run: RunStatement,
  filter: HistoryFilter,
  term: Term | undefined,
): Promise<{ positions: Position[]; total: number }> {
  if (filter.addresses?.length) {
    const walletKeys = [...new Set(filter.addresses.flatMap(walletLookupKeys))];
    const where = historyWhere(filter, term);
    const branches = walletBranches(walletKeys);
    // Only wallets and statuses: the wallet counters; with more filters, each side's index.
    const total =
      term || filter.referralCode !== undefined || filter.transactionId !== undefined
        ? unionCount(branches, where)
        : walletTotal(walletKeys, statusIn(statusesOf(filter)));
    return countedPage(run, filter, total, branches, where);
  }
  const total = filter.transactionId ? rowCount(historyWhere(filter, term)) : broadTotal(filter, term);
  const { branches, rest } = broadBranches(filter, term);
  return countedPage(run, filter, total, branches, rest);
}

/** What a history item is made of: the status answer's columns and the USD amount, none of the large JSON. */
const itemColumns = {
  ...(Object.fromEntries(STATUS_FIELDS.map((field) => [field, transactions[field]])) as Pick<
    ReturnType<typeof getTableColumns<typeof transactions>>,
    (typeof STATUS_FIELDS)[number]
  >),
  amountUsd: transactions.amountUsd,
};

const rowsById = perKey((ctx: AppContext) =>
  ctx.db
    .select(itemColumns)
    .from(transactions)
    .where(sql`${transactions.id} = any(${sql.placeholder('ids')}::text[])`)
    .prepare('history_rows'),
);

/** The rows of a page's positions, read by primary key in one query (the deferred join). */
async function rowsAt(ctx: AppContext, positions: Position[]) {
  const ids = positions.map((p) => p.id);
  const rows = ids.length ? await rowsById(ctx).execute({ ids: arrayLiteral(ids) }) : [];
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

/** Offset pages reach this many rows; past them only `cursor` pages, which cost what page 1 does. */
export const MAX_OFFSET_ROWS = 10_000;

function assertShallow(filter: HistoryFilter) {
  if (filter.cursor || filter.page * filter.perPage <= MAX_OFFSET_ROWS) return;
  const message = `page × perPage may be at most ${MAX_OFFSET_ROWS.toLocaleString('en-US')}; to read further, page with \`cursor\` (GET /api/v1/transaction/history answers \`nextCursor\`)`;
  throw validationError([{ code: 'VALIDATION_ERROR', field: 'page', message }]);
}

export interface HistoryPage extends Paginated<ReturnType<typeof presentHistoryItem>> {
  /** Continues after this page's last row (`cursor`); null when nothing follows. */
  nextCursor: string | null;
  hasMore: boolean;
}

/**
 * A public history read, newest first with an exact total. By `page`, or by `cursor` (keyset: the rows
 * after the last one of the page that returned it, whatever was inserted meanwhile). Its counting and
 * page run bounded per client and are cancelled at the request deadline (`boundedRead`).
 */
export async function listPublicHistory(
  ctx: AppContext,
  guard: ReadGuard,
  filter: HistoryFilter,
  scopeFields: ScopeField[] = ['addresses', 'transactionId'],
): Promise<HistoryPage> {
  assertScoped(ctx, filter, scopeFields);
  assertShallow(filter);
  const term = await resolveTerm(ctx, filter.search);
  // Only the counting and the page's positions: the catalog and the rows by primary key stay outside.
  const { positions, total } = await boundedRead(ctx, guard, (run) => pageOf(run, filter, term));
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
