import { spawn } from 'node:child_process';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKEW, skewSwaps } from '../bench/scale-dataset';
import * as schema from '../drizzle/schema';
import { affiliateId, referralCodeOf } from '../drizzle/seed/swap-dataset';
import type { AppContext } from '../server/context';
import { createApiServer } from '../server/http/node-adapter';
import { listen } from '../server/lifecycle';
import { foldSwapDeltas } from '../server/rollups/swaps';
import { SEARCH_MATCHES_CAP } from '../server/schemas/transactions';
import { startTestApp, type TestApp } from './support/app';
import { type Caller, callerFor, outcomeOf, signedInUser } from './support/dashboard';
import { childEnv, exitWithin } from './support/processes';

/**
 * A database seeded the way a newcomer's is (`npm run db:demo`), a little over the dashboard's count
 * cap. On it: what the demo seed leaves, the capped total, and the plan of every statement the
 * dashboard and the public reads run, which must never read a whole swap table.
 */

const SWAPS = SEARCH_MATCHES_CAP + 50;
/** What one public read may read of the swap tables at this size: a page's worth of index entries per branch, not a count. */
const PUBLIC_ROWS_READ = 1_000;
const BIG_TABLES = new Set(['transactions', 'locks', 'transaction_events', 'audit_events']);
/** A year of staff actions at a busy desk. */
const AUDIT_EVENTS = 1_000_000;

let t: TestApp;
let admin: Caller;

function runDemo(extra: string[] = []): Promise<{ code: number | string | undefined; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'drizzle/seed/demo.ts', ...extra], {
    env: childEnv(t.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  return exitWithin(child, 240_000).then((code) => ({ code, output }));
}

beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(() => t?.stop());

describe('the demo dataset (npm run db:demo)', () => {
  it('fills an empty database with a year of swaps, their locks and timelines, rolled up for the dashboard', async () => {
    const { code, output } = await runDemo(['--swaps', String(SWAPS)]);
    expect(code, output).toBe(0);
    // Signed in only now: the demo refuses a database that has users.
    admin = await callerFor(t.app, (await signedInUser(t.app, 'admin')).headers);
    const [counts] = await t.app.sql<
      {
        swaps: number;
        locks: number;
        executed: number;
        events: number;
        days: number;
        deltas: number;
        counted: string;
      }[]
    >`
      select (select count(*)::int from transactions) as swaps,
             (select count(*)::int from locks) as locks,
             (select count(*)::int from locks where state = 'used') as executed,
             (select count(*)::int from transaction_events) as events,
             (select (extract(epoch from max(created_at) - min(created_at)) / 86400)::int from transactions) as days,
             (select count(*)::int from swap_rollup_deltas) as deltas,
             (select sum(swaps)::text from swap_counts) as counted`;
    expect(counts).toMatchObject({
      swaps: SWAPS,
      locks: 2 * SWAPS,
      executed: SWAPS,
      deltas: 0,
      counted: String(SWAPS),
    });
    expect(counts?.events).toBeGreaterThan(2 * SWAPS);
    expect(counts?.days).toBeGreaterThanOrEqual(360);
    const mix = await t.app.sql<{ status: string; n: number }[]>`
      select status, count(*)::int as n from transactions group by status`;
    expect(mix.map((m) => m.status).sort()).toEqual(['FAILED', 'PENDING', 'REFUND', 'SUCCESS']);
    const [wallets] = await t.app.sql<{ distinct: number; hottest: number; credited: number; providers: number }[]>`
      select count(distinct wallet_key)::int as distinct, max(n)::int as hottest,
             (select count(*)::int from transactions where referral_owner_id is not null) as credited,
             (select count(distinct provider)::int from transactions) as providers
      from (select wallet_key, count(*) as n from transactions group by 1) w`;
    expect(wallets?.providers).toBe(4);
    expect(wallets?.distinct).toBeGreaterThan(SWAPS / 20);
    expect(wallets?.hottest).toBeGreaterThan(SWAPS / 500);
    expect(wallets?.credited).toBeGreaterThan(SWAPS / 10);
  }, 300_000);

  it('shows the dashboard as an operator sees it: charts with data in every range', async () => {
    for (const range of ['24h', '7d', '30d'] as const) {
      const locks = await admin.locks.activity({ range });
      expect(locks.totals.created, range).toBeGreaterThan(0);
      expect(locks.series.filter((p) => p.created > 0).length, range).toBeGreaterThan(range === '24h' ? 5 : 5);
      const affiliates = await admin.affiliates.overview({ range: '30d' });
      expect(affiliates.totals.swaps).toBeGreaterThan(0);
      const trends = await admin.operations.trends({ range });
      expect(trends.providers.length, range).toBe(4);
      expect((await admin.rateLimits.activity({ range })).total, range).toBeGreaterThan(0);
    }
    const mine = await admin.affiliates.overview({ range: '30d', ownerId: affiliateId(1) });
    expect(mine.codes.map((c) => c.code)).toContain(referralCodeOf(1));
    expect((await admin.operations.overview()).kpis.swaps).toBeGreaterThan(0);
  });

  it('refuses a database that already has swaps', async () => {
    const { code, output } = await runDemo(['--swaps', '10']);
    expect(code).toBe(1);
    expect(output).toMatch(/already has swaps/);
    const [row] = await t.app.sql<{ n: number }[]>`select count(*)::int as n from transactions`;
    expect(row?.n).toBe(SWAPS);
  }, 300_000);
});

describe('the support search total', () => {
  it('counts to the cap and says more match, with a next page', async () => {
    const page = await admin.transactions.search({ perPage: 25 });
    expect(page).toMatchObject({ total: SEARCH_MATCHES_CAP, totalCapped: true, hasMore: true });
    expect(page.items).toHaveLength(25);
  });

  it('is exact under the cap, and the last page says so', async () => {
    const [row] = await t.app.sql<{ n: number }[]>`select count(*)::int as n from transactions where status = 'REFUND'`;
    const n = row?.n ?? 0;
    expect(n).toBeGreaterThan(25);
    const first = await admin.transactions.search({ statuses: ['REFUND'], perPage: 25 });
    expect(first).toMatchObject({ total: n, totalCapped: false, hasMore: true });
    const last = await admin.transactions.search({ statuses: ['REFUND'], perPage: 25, page: Math.ceil(n / 25) });
    expect(last.hasMore).toBe(false);
    expect(last.items).toHaveLength(n - 25 * (Math.ceil(n / 25) - 1));
  });

  it('pages reach the cap and no further', async () => {
    const lastPage = SEARCH_MATCHES_CAP / 25;
    expect((await admin.transactions.search({ perPage: 25, page: lastPage })).items).toHaveLength(25);
    expect(await outcomeOf(admin.transactions.search({ perPage: 25, page: lastPage + 1 }))).toBe('BAD_REQUEST');
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

const nodeTypes = (node: PlanNode): string[] => [node['Node Type'], ...(node.Plans ?? []).flatMap(nodeTypes)];

/** Rows of the swap tables (or of `tables`) a plan's scans read, kept or filtered out. */
function rowsRead(node: PlanNode, tables: ReadonlySet<string> = BIG_TABLES): number {
  const relation = node['Relation Name'];
  const own =
    relation && tables.has(relation)
      ? ((node['Actual Rows'] ?? 0) +
          (node['Rows Removed by Filter'] ?? 0) +
          (node['Rows Removed by Index Recheck'] ?? 0)) *
        (node['Actual Loops'] ?? 1)
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child, tables), 0);
}

/** The indexes a plan reads. */
const indexesOf = (node: PlanNode): string[] => [
  ...(node['Index Name'] ? [node['Index Name']] : []),
  ...(node.Plans ?? []).flatMap(indexesOf),
];

/** The scans of `relation` in a plan. */
const scansOf = (node: PlanNode, relation: string): PlanNode[] => [
  ...(node['Relation Name'] === relation ? [node] : []),
  ...(node.Plans ?? []).flatMap((child) => scansOf(child, relation)),
];

/**
 * Whole-table reads of a swap table in a plan: a sequential scan, or a scan of a full index with no
 * bound and no limit above it (a partial index holds only the rows its predicate names).
 */
function wholeTableReads(node: PlanNode, partial: Set<string>, underLimit = false): string[] {
  const found: string[] = [];
  const relation = node['Relation Name'];
  if (relation && BIG_TABLES.has(relation)) {
    if (node['Node Type'] === 'Seq Scan') found.push(`Seq Scan on ${relation}`);
    const index = node['Index Name'] ?? '';
    if (/^Index (Only )?Scan$/.test(node['Node Type']) && !node['Index Cond'] && !underLimit && !partial.has(index)) {
      found.push(`${node['Node Type']} using ${index} with no bound`);
    }
  }
  const bitmapIndex = node['Node Type'] === 'Bitmap Index Scan' ? (node['Index Name'] ?? '') : '';
  if (bitmapIndex && !node['Index Cond'] && !partial.has(bitmapIndex)) {
    found.push(`Bitmap Index Scan using ${bitmapIndex} with no bound`);
  }
  for (const child of node.Plans ?? []) {
    found.push(...wholeTableReads(child, partial, underLimit || node['Node Type'] === 'Limit'));
  }
  return found;
}

/**
 * Sorts of every row a scan of a swap table matched: a Sort with a scan below it and no Limit between
 * (a Limit above the Sort bounds what is returned, not what is read).
 */
function sortsOfEveryMatch(node: PlanNode, inSort = false): string[] {
  const found: string[] = [];
  const relation = node['Relation Name'];
  if (inSort && relation && BIG_TABLES.has(relation)) found.push(`Sort over ${node['Node Type']} on ${relation}`);
  const below = node['Node Type'] === 'Limit' ? false : inSort || node['Node Type'] === 'Sort';
  for (const child of node.Plans ?? []) found.push(...sortsOfEveryMatch(child, below));
  return found;
}

// A generous hang guard, not a timing bound: under a busy machine a plan check can outlast the default
// 20 s, and a timed-out test's calls run on and reset `plans` under the next test.
describe('query plans', { timeout: 120_000 }, () => {
  let traced: postgres.Sql;
  let app: AppContext;
  let plans: { query: string; plan: PlanNode }[] = [];
  let baseUrl: string;
  let close: () => Promise<void>;
  let partial: Set<string>;

  beforeAll(async () => {
    // Lopsided as real traffic is: one recipient of 40 % of the swaps, one code on half, one source asset in most.
    await skewSwaps(t.app.sql);
    await foldSwapDeltas(t.app);
    await t.app.sql`vacuum (analyze) transactions`;
    await t.app.sql`analyze`;
    const partialIndexes = await t.app.sql<{ name: string }[]>`
      select indexname as name from pg_indexes where schemaname = 'public' and indexdef like '% WHERE %'`;
    partial = new Set(partialIndexes.map((i) => i.name));
    // Every statement's plan comes back as a notice (auto_explain), with the rows it read; with sequential
    // scans priced out, a statement that has no index path at all still shows one. Plans are generic, as
    // postgres.js gets them after a statement's first executions on a connection: chosen for no value.
    traced = postgres(t.env.DATABASE_URL as string, {
      max: 4,
      onnotice: (notice) => {
        const text = String(notice.message ?? '');
        const json = text.slice(text.indexOf('{'));
        if (!text.includes('plan:')) return;
        const parsed = JSON.parse(json) as { 'Query Text': string; Plan: PlanNode };
        plans.push({ query: parsed['Query Text'], plan: parsed.Plan });
      },
      connection: {
        session_preload_libraries: 'auto_explain',
        'auto_explain.log_min_duration': '0',
        'auto_explain.log_level': 'notice',
        'auto_explain.log_format': 'json',
        'auto_explain.log_analyze': 'on',
        'auto_explain.log_timing': 'off',
        plan_cache_mode: 'force_generic_plan',
        // Priced-out scans also make plans look costly enough for JIT, which public reads must turn off
        // (seconds to compile a read of a few rows).
        enable_seqscan: 'off',
      } as Record<string, string>,
    });
    app = { ...t.app, sql: traced, db: drizzle(traced, { schema }) };
    const server = createApiServer(app);
    baseUrl = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
    close = async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await traced.end();
    };
  });
  afterAll(() => close?.());

  const sample = async () => {
    const [row] = await t.app.sql<{ id: string; lock_id: string; hash: string; wallet: string }[]>`
      select id, lock_id, hash, wallet_address as wallet from transactions where hash <> '' order by id limit 1 offset 500`;
    if (!row) throw new Error('no swap to sample');
    return row;
  };

  /** Every statement on the swap tables reads through an index, and all of them together at most `maxRows` rows. */
  async function expectBounded(label: string, run: () => Promise<unknown>, maxRows = Number.POSITIVE_INFINITY) {
    plans = [];
    await run();
    const swapPlans = plans.filter((p) => /transactions|locks|transaction_events/.test(p.query));
    expect(swapPlans.length, `${label}: no statement on the swap tables was seen`).toBeGreaterThan(0);
    for (const p of swapPlans) {
      expect(wholeTableReads(p.plan, partial), `${label}: ${p.query.replace(/\s+/g, ' ').slice(0, 400)}`).toEqual([]);
    }
    const read = swapPlans.map((p) => ({ rows: rowsRead(p.plan), query: p.query.replace(/\s+/g, ' ').slice(0, 300) }));
    const total = read.reduce((sum, r) => sum + r.rows, 0);
    expect(total, `${label}: rows read ${JSON.stringify(read.filter((r) => r.rows > 50))}`).toBeLessThanOrEqual(
      maxRows,
    );
    return total;
  }

  it('every dashboard query reads through an index, bounded', async () => {
    const s = await sample();
    const caller = await callerFor(app, (await signedInUser(t.app, 'admin')).headers);
    const calls: [string, () => Promise<unknown>][] = [
      ...(['24h', '7d', '30d'] as const).flatMap((range): [string, () => Promise<unknown>][] => [
        [`locks.activity ${range}`, () => caller.locks.activity({ range })],
        [`affiliates.overview ${range}`, () => caller.affiliates.overview({ range })],
        [
          `affiliates.overview ${range}, one affiliate`,
          () => caller.affiliates.overview({ range, ownerId: affiliateId(2) }),
        ],
      ]),
      ['operations.overview', () => caller.operations.overview()],
      ['transactions.search', () => caller.transactions.search({ perPage: 25 })],
      ['transactions.search by hash', () => caller.transactions.search({ query: s.hash })],
      ['transactions.search by hash prefix', () => caller.transactions.search({ query: s.hash.slice(0, 12) })],
      ['transactions.search by id', () => caller.transactions.search({ query: s.id })],
      ['transactions.search by lock id', () => caller.transactions.search({ query: s.lock_id })],
      ['transactions.search by wallet', () => caller.transactions.search({ query: s.wallet })],
      ['transactions.search by status', () => caller.transactions.search({ statuses: ['FAILED'] })],
      ['transactions.search by provider', () => caller.transactions.search({ provider: 'chainflip' })],
      ['transactions.search by chain', () => caller.transactions.search({ chain: 'solana' })],
      ['transactions.search by referral code', () => caller.transactions.search({ referralCode: referralCodeOf(3) })],
      ['transactions.search stale', () => caller.transactions.search({ stale: true })],
      ['transactions.search by date', () => caller.transactions.search({ from: new Date(Date.now() - 86_400_000) })],
      ...(['amountUsd', 'status', 'provider', 'createdAt'] as const).flatMap((field) =>
        (['asc', 'desc'] as const).map((direction): [string, () => Promise<unknown>] => [
          `transactions.search sorted by ${field} ${direction}`,
          () => caller.transactions.search({ sort: { field, direction } }),
        ]),
      ),
      ['transactions.detail', () => caller.transactions.detail({ id: s.id })],
    ];
    for (const [label, run] of calls) await expectBounded(label, run);
  });

  it('a search by chain reads its matches once: counted and paged through one merge of ordered branches', async () => {
    const caller = await callerFor(app, (await signedInUser(t.app, 'admin')).headers);
    const { total } = await caller.transactions.search({ chain: 'ethereum', perPage: 25 });
    expect(total).toBeGreaterThan(2_000);
    // An `in (…)` of the chain's assets read each side out of creation order: its page sorted every match
    // again after the count had read them (about twice the matches in all).
    const read = await expectBounded('search by chain', () => caller.transactions.search({ chain: 'ethereum' }));
    expect(read, `rows read for ${total} matches`).toBeLessThan(total * 1.3 + 500);
  });

  it('every public read reads through an index, bounded', async () => {
    const s = await sample();
    const history = (q: string) => `/api/v1/transaction/history?${q}`;
    const paths = [
      history(''),
      history('statuses=REFUND'),
      history('statuses=SUCCESS,FAILED'),
      history('finalizedOnly=true'),
      history(`referralCode=${referralCodeOf(1)}`),
      history(`referralCode=${referralCodeOf(1)}&statuses=FAILED&query=ETH`),
      history(`transactionId=${s.id}`),
      history(`addresses=${s.wallet}`),
      history(`addresses=${s.wallet}&query=relay&statuses=SUCCESS`),
      history(`query=${s.hash}`),
      history(`query=${s.id}`),
      history(`query=${s.wallet}`),
      history('query=USDC'),
      history('query=thorchain'),
      history(`query=${referralCodeOf(2)}`),
      history('query=ETH&finalizedOnly=true&page=3'),
      history('page=400&perPage=25'),
      history(`query=${SKEW.hotRecipient}`),
      history(`query=${SKEW.hotRecipient}&statuses=SUCCESS,FAILED`),
      history(`query=${SKEW.hotCode}`),
      history(`referralCode=${SKEW.hotCode}&query=ETH`),
      history(`addresses=${SKEW.hotRecipient}`),
      ...SKEW.noMatch.map((term) => history(`query=${term}`)),
      `/api/transaction/history?search=${SKEW.hotRecipient}`,
      '/api/transaction/history?search=0xab',
      `/api/transaction/history?search=${s.hash}`,
      `/api/v1/transaction/status?transactionId=${s.id}`,
      `/api/v1/transaction/status?hash=${s.hash}`,
      `/api/v1/transaction/events?transactionId=${s.id}`,
    ];
    for (const path of paths) {
      await expectBounded(
        path,
        async () => {
          const res = await fetch(`${baseUrl}${path}`);
          expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
        },
        PUBLIC_ROWS_READ,
      );
    }
    const first = await (await fetch(`${baseUrl}${history('perPage=5')}`)).json();
    await expectBounded('history by cursor', async () => {
      const res = await fetch(`${baseUrl}${history(`perPage=5&cursor=${first.pagination.nextCursor}`)}`);
      expect(res.status).toBe(200);
    });
  });

  it("the hot recipient's total reads a counter row per status, not a cell per sender", async () => {
    const counters = new Set(['wallet_counts', 'wallet_pair_counts']);
    const paths = [
      `/api/v1/transaction/history?addresses=${SKEW.hotRecipient}`,
      `/api/v1/transaction/history?addresses=${SKEW.hotRecipient}&statuses=SUCCESS,FAILED`,
      `/api/v1/transaction/history?query=${SKEW.hotRecipient}`,
      `/api/transaction/history?search=${SKEW.hotRecipient}`,
      `/api/transaction/history?addresses=${SKEW.hotRecipient}`,
    ];
    // A wallet not shaped like EVM's, in upper case, is looked up under two keys: the rows of each and the
    // pair cells between the two, not every cell of the sender who pays the most wallets.
    const [twoKeys] = await t.app.sql<{ wallet: string }[]>`
      select upper(wallet_address) as wallet from transactions where wallet_address !~ '^0x'
      group by wallet_address order by count(distinct recipient_wallet_key) desc limit 1`;
    if (!twoKeys) throw new Error('no wallet to sample');
    const cases: [string, number][] = [
      ...paths.map((path): [string, number] => [path, 4]),
      [`/api/v1/transaction/history?addresses=${twoKeys.wallet}`, 8],
      [`/api/v1/transaction/history?query=${twoKeys.wallet}&statuses=SUCCESS`, 8],
    ];
    for (const [path, maxRows] of cases) {
      plans = [];
      const res = await fetch(`${baseUrl}${path}`);
      expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
      const totals = plans.filter((p) => /wallet_(pair_)?counts/.test(p.query));
      expect(totals.length, `${path}: no statement read the wallet counters`).toBeGreaterThan(0);
      // At most a row per key and status, and the pair cells between the keys (none here).
      expect(
        totals.reduce((sum, p) => sum + rowsRead(p.plan, counters), 0),
        path,
      ).toBeLessThanOrEqual(maxRows);
      // The cells between the keys are looked up by sender and recipient, never a sender's every cell.
      const pairScans = totals.flatMap((p) => scansOf(p.plan, 'wallet_pair_counts'));
      if (path.includes(twoKeys.wallet)) expect(pairScans.length, path).toBeGreaterThan(0);
      for (const scan of pairScans) {
        expect(scan['Index Cond'] ?? scan['Recheck Cond'], path).toMatch(/wallet_key = .*recipient_wallet_key = /);
      }
    }
  });

  it('a deep page of a term naming many assets reads about offset + perPage entries, not that many per branch', async () => {
    const history = (q: string) => `/api/v1/transaction/history?query=e&perPage=50${q}`;
    const { pagination } = await (await fetch(`${baseUrl}${history('')}`)).json();
    // The deepest page still read from the newest end.
    const page = Math.floor(pagination.total / 2 / 50);
    expect(page).toBeGreaterThan(20);
    // A swap is in at most two of the term's branches (from and to an asset whose symbol has an e).
    await expectBounded(
      `query=e page ${page}`,
      async () => {
        const res = await fetch(`${baseUrl}${history(`&page=${page}`)}`);
        expect(res.status).toBe(200);
        expect((await res.json()).data).toHaveLength(50);
      },
      2 * page * 50 + 200,
    );
    const merged = plans.find((p) => /created_text/.test(p.query));
    const kinds = nodeTypes(merged?.plan as PlanNode);
    expect(kinds, 'the branches are merged in order as far as the page, not each read to its end and sorted').toContain(
      'Merge Append',
    );
    expect(kinds).not.toContain('HashAggregate');
  });

  it('the referral code lists are read newest first from an index, not sorted', async () => {
    const caller = await callerFor(app, (await signedInUser(t.app, 'admin')).headers);
    const lists: [string, () => Promise<unknown>, string][] = [
      ['every code', () => caller.affiliates.overview({ range: '7d', codesPerPage: 3 }), 'referral_codes_created_idx'],
      [
        "one affiliate's codes",
        () => caller.affiliates.overview({ range: '7d', ownerId: affiliateId(2), codesPerPage: 3 }),
        'referral_codes_owner_created_idx',
      ],
    ];
    for (const [label, run, index] of lists) {
      const first = (await run()) as { codesNextCursor: string | null };
      expect(first.codesNextCursor, label).not.toBeNull();
      plans = [];
      await run();
      const list = plans.find((p) => /from referral_codes rc left join auth_user/.test(p.query));
      const kinds = nodeTypes(list?.plan as PlanNode);
      expect(kinds, label).not.toContain('Sort');
      expect(JSON.stringify(list?.plan), label).toContain(`"Index Name":"${index}"`);
    }
  });

  it("a wallet's history page is read in index order, never every swap of the wallet sorted", async () => {
    const [hot] = await t.app.sql<{ wallet: string; other: string }[]>`
      select wallet_address as wallet,
             (select wallet_address from transactions where wallet_key <> w.wallet_key limit 1) as other
      from transactions w group by wallet_address, wallet_key order by count(*) desc limit 1`;
    if (!hot) throw new Error('no wallet to sample');
    const history = (q: string) => `/api/v1/transaction/history?${q}`;
    const first = await (await fetch(`${baseUrl}${history(`addresses=${hot.wallet}&perPage=5`)}`)).json();
    // [path, whether its plan is checked]: two wallets' branches may each be small enough that the
    // planner rightly sorts a bitmap's few rows; their statement must still name each key by equality.
    const paths: [string, boolean][] = [
      [history(`addresses=${hot.wallet}`), true],
      [history(`addresses=${hot.wallet}&statuses=SUCCESS,FAILED`), true],
      [history(`addresses=${hot.wallet}&perPage=5&cursor=${first.pagination.nextCursor}`), true],
      [`/api/transaction/history?addresses=${hot.wallet}`, true],
      [history(`addresses=${hot.wallet},${hot.other}`), false],
    ];
    for (const [path, planChecked] of paths) {
      plans = [];
      const res = await fetch(`${baseUrl}${path}`);
      expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
      const pages = plans.filter((p) => /from transactions/.test(p.query) && /order by created_at/.test(p.query));
      expect(pages.length, `${path}: no page statement was seen`).toBeGreaterThan(0);
      for (const p of pages) {
        const query = p.query.replace(/\s+/g, ' ');
        expect(query, path).not.toMatch(/wallet_key = any/i);
        if (planChecked) expect(sortsOfEveryMatch(p.plan), `${path}: ${query}`).toEqual([]);
      }
    }
  });

  // Its own hang guard: writing a million events took 97 s of the describe's 120 on a loaded 2-core machine.
  it('the audit page reads a page of index entries for each filter, not a year of events', async () => {
    // Written straight in, chain and all left aside: the plans are what is checked here, not the hashes.
    await t.app.sql`
      insert into audit_events (at, actor_user_id, actor_email, actor_role, action, target_type, target_id,
                                client_address, request_id, hash)
      select now() - (i * interval '31 seconds'), 'usr_' || (i % 40), 'staff' || (i % 40) || '@switchyard.test',
             'support', (array['auth.sign_in', 'auth.sign_in_failed', 'transaction.poll_now', 'webhook.update'])[1 + i % 4],
             'transaction', 'tx_' || (i % 50000), '198.51.100.' || (i % 200), 'req_' || i, md5(i::text)
      from generate_series(1, ${AUDIT_EVENTS}) as i`;
    await t.app.sql`vacuum (analyze) audit_events`;
    const caller = await callerFor(app, (await signedInUser(t.app, 'admin')).headers);
    const first = await caller.audit.list({ action: 'transaction.poll_now' });
    const dayAgo = new Date(Date.now() - 86_400_000);
    const calls: [string, () => Promise<unknown>][] = [
      ['every event', () => caller.audit.list({})],
      ['by actor email', () => caller.audit.list({ actor: 'STAFF7@switchyard.test' })],
      ['by actor id', () => caller.audit.list({ actor: 'usr_7' })],
      ['by action', () => caller.audit.list({ action: 'auth.sign_in' })],
      ['by target', () => caller.audit.list({ targetType: 'transaction', targetId: 'tx_123' })],
      ['by time', () => caller.audit.list({ from: new Date(Date.now() - 90 * 86_400_000), to: dayAgo })],
      ['an older page', () => caller.audit.list({ action: 'transaction.poll_now', cursor: first.nextCursor ?? '' })],
      ['failed sign-ins, last hour', () => caller.audit.failedSignIns({ window: '1h' })],
    ];
    const used = new Set<string>();
    for (const [label, run] of calls) {
      plans = [];
      await run();
      const audit = plans.filter((p) => /from audit_events/.test(p.query));
      for (const p of audit) for (const name of indexesOf(p.plan)) used.add(name);
      expect(audit.length, `${label}: no statement on audit_events was seen`).toBeGreaterThan(0);
      for (const p of audit) {
        const query = p.query.replace(/\s+/g, ' ').slice(0, 300);
        expect(wholeTableReads(p.plan, partial), `${label}: ${query}`).toEqual([]);
        // A count by address or account sorts the window's failures, which the rows-read bound below keeps small.
        if (!label.startsWith('failed')) expect(sortsOfEveryMatch(p.plan), `${label}: ${query}`).toEqual([]);
        // A page is 50 events; the hour's failed sign-ins about 30 (one event every 31 s, a quarter failed).
        expect(rowsRead(p.plan, new Set(['audit_events'])), `${label}: ${query}`).toBeLessThanOrEqual(
          label.startsWith('failed') ? 200 : 2_000,
        );
      }
    }
    // An index no read of the page uses only costs every insert (and the chain lock is held meanwhile).
    const indexes = await t.app.sql<{ name: string }[]>`
      select indexname as name from pg_indexes where tablename = 'audit_events' and indexname <> 'audit_events_pkey'`;
    expect(indexes.map((i) => i.name).filter((name) => !used.has(name))).toEqual([]);
  }, 300_000);

  it('the late filters read a backlog of pending swaps from an index alone, and only the page by key', async () => {
    // A backlog far larger than a page, as an outage leaves: every late swap's row was fetched and sorted (#44).
    // What the rows held before, put back after (the tests after this one read the same dataset).
    const backlog = await t.app.sql<{ id: string; late_at: string | null; finalized_at: string | null }[]>`
      update transactions set status = 'PENDING', finalized_at = null,
        late_at = case when abs(hashtext(transactions.id)) % 10 = 0 then now() + interval '1 day' else transactions.created_at + interval '1 hour' end
      from (select id, late_at, finalized_at from transactions where status = 'SUCCESS' order by id limit 3000) as before
      where transactions.id = before.id
      returning before.id, before.late_at::text, before.finalized_at::text`;
    await t.app.sql`vacuum (analyze) transactions`;
    try {
      const caller = await callerFor(app, (await signedInUser(t.app, 'admin')).headers);
      for (const search of [
        { late: true, perPage: 25 },
        { late: true, perPage: 25, page: 4 },
        { statuses: ['PENDING' as const], late: false, perPage: 25 },
      ]) {
        plans = [];
        const found = await caller.transactions.search(search);
        expect(found.items.length, JSON.stringify(search)).toBe(25);
        const scans = plans.flatMap((p) => scansOf(p.plan, 'transactions').map((scan) => ({ query: p.query, scan })));
        // Whatever reads more than a page's worth reads the index alone; the rows come by primary key.
        const heapReads = scans.filter(
          ({ scan }) =>
            (scan['Actual Rows'] ?? 0) + (scan['Rows Removed by Filter'] ?? 0) > 100 &&
            scan['Node Type'] !== 'Index Only Scan',
        );
        expect(
          heapReads.map(
            ({ query, scan }) =>
              `${scan['Node Type']} ${scan['Index Name']}: ${query.replace(/\s+/g, ' ').slice(0, 200)}`,
          ),
          JSON.stringify(search),
        ).toEqual([]);
        expect(
          scans.some(({ scan }) => scan['Index Name'] === 'transactions_pkey'),
          JSON.stringify(search),
        ).toBe(true);
      }
    } finally {
      await t.app.sql`
        update transactions set status = 'SUCCESS', late_at = before.late_at, finalized_at = before.finalized_at
        from jsonb_to_recordset(${JSON.stringify(backlog)}::jsonb) as before(id text, late_at timestamptz, finalized_at timestamptz)
        where transactions.id = before.id`;
    }
  });

  it('the check itself sees a whole-table read', async () => {
    plans = [];
    await traced`select count(*) from transactions`;
    await traced`select id from transactions where wallet_address like '%abc%' limit 5`;
    await traced`select id from transactions order by created_at desc limit 5`;
    const [count, unindexed, page] = plans;
    expect(wholeTableReads(count?.plan as PlanNode, partial)).toEqual([
      expect.stringMatching(/^(Seq Scan on transactions|(Bitmap )?Index (Only )?Scan using \w+ with no bound)$/),
    ]);
    expect(wholeTableReads(unindexed?.plan as PlanNode, partial)).toEqual(['Seq Scan on transactions']);
    expect(wholeTableReads(page?.plan as PlanNode, partial)).toEqual([]);
    plans = [];
    await traced`select id from transactions where wallet_key = any(${'{a,b}'}::text[]) order by created_at desc limit 5`;
    expect(sortsOfEveryMatch(plans[0]?.plan as PlanNode)).toEqual([
      expect.stringMatching(/^Sort over (Index|Index Only|Bitmap Heap) Scan on transactions$/),
    ]);
  });
});
