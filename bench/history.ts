/**
 * 4. History: page 1 against a deep page (page 200 of 50, the last) for a wallet with 10k
 * transactions in a 1M-row table, through the lean server; p50/p99 of each and the ratio. The SQL
 * of both pages is also timed with EXPLAIN ANALYZE, to tell the database's share from the rest.
 */
import { performance } from 'node:perf_hooks';
import { foldSwapDeltas, recordExistingSwaps } from '../server/rollups/swaps';
import { insertSyntheticTransactions } from './fixtures';
import { type Aggregate, httpRequest, interleaved, unexpected } from './load';
import type { Bench } from './setup';

const SECTION = 'history';
const WALLET = `0x${'ab'.repeat(20)}`;
const WALLET_ROWS = 10_000;
const PER_PAGE = 50;
const CHUNK = 100_000;
const INSERT_BUDGET_MS = 90_000;

/** The table: `total` rows over ~65k wallets, every (total / 10k)-th row the measured wallet's. */
async function fillTable(b: Bench, total: number) {
  const step = Math.max(1, Math.floor(total / WALLET_ROWS));
  const started = performance.now();
  let inserted = 0;
  // Bulk load only: no commit wait, FK triggers skipped (rows are consistent by construction).
  await b.sql.begin(async (tx) => {
    await tx`set local synchronous_commit = off`;
    await tx`set local session_replication_role = replica`;
    let chunkMs = 0;
    // Stops before a chunk that would end past the budget (the table is then smaller, and says so).
    while (inserted < total && performance.now() - started + chunkMs < INSERT_BUDGET_MS) {
      const chunkStarted = performance.now();
      const count = Math.min(CHUNK, total - inserted);
      await insertSyntheticTransactions(tx, {
        tag: 'hist',
        first: inserted + 1,
        count,
        status: 'SUCCESS',
        assets: b.assets,
        wallet: `case when i % ${step} = 0 then '${WALLET}' else '0x' || lpad(to_hex(i % 65521), 40, '0') end`,
        createdAt: `now() - i * interval '20 seconds'`,
      });
      inserted += count;
      chunkMs = performance.now() - chunkStarted;
    }
    // Triggers were off, so the rollups the history totals read are fed as the product's backfill feeds them.
    await recordExistingSwaps(tx);
  });
  while ((await foldSwapDeltas(b)).folded > 0);
  // A table this size is vacuumed in steady state: statistics and the visibility map as autovacuum leaves them.
  await b.sql`vacuum (analyze) transactions`;
  await b.sql`vacuum (analyze) locks`;
  const [row] = await b.sql<{ rows: number; wallet: number }[]>`
    select (select count(*)::int from transactions) as rows,
           (select count(*)::int from transactions where wallet_key = ${WALLET}) as wallet`;
  return { rows: row?.rows ?? 0, walletRows: row?.wallet ?? 0, seconds: (performance.now() - started) / 1000 };
}

/** Execution time of the page query and the count, as the database reports them. */
async function explain(b: Bench, page: number) {
  const where = `(wallet_key in ('${WALLET}') or recipient_wallet_key in ('${WALLET}'))`;
  // Median of three: one plan's timing on a busy machine says little.
  const run = async (query: string) => {
    const tries: { ms: number; plan: unknown }[] = [];
    for (let i = 0; i < 3; i++) {
      const plan = await b.sql.unsafe(`explain (analyze, buffers, format json) ${query}`);
      const [top] = (plan[0] as unknown as { 'QUERY PLAN': { 'Execution Time': number; Plan: unknown }[] })[
        'QUERY PLAN'
      ];
      tries.push({ ms: top?.['Execution Time'] ?? 0, plan: top?.Plan });
    }
    return tries.sort((x, y) => x.ms - y.ms)[1] as { ms: number; plan: unknown };
  };
  const rows = await run(
    `select * from transactions where ${where} order by created_at desc, id desc limit ${PER_PAGE} offset ${(page - 1) * PER_PAGE}`,
  );
  const count = await run(`select count(*) from transactions where ${where}`);
  return { rowsMs: rows.ms, countMs: count.ms, rowsPlan: rows.plan, countPlan: count.plan };
}

export async function historySection(b: Bench): Promise<void> {
  const table = await fillTable(b, b.count(1_000_000, 100_000));
  console.log(`    ${table.rows} rows (${table.walletRows} for the wallet) in ${table.seconds.toFixed(1)} s`);
  if (table.rows < b.count(1_000_000, 100_000)) b.report.note(`history: insert budget reached at ${table.rows} rows`);
  const deepPage = Math.max(2, Math.ceil(table.walletRows / PER_PAGE));
  const api = await b.api();
  const path = (page: number) => `/api/v1/transaction/history?addresses=${WALLET}&perPage=${PER_PAGE}&page=${page}`;

  const check = await fetch(`http://127.0.0.1:${api.port}${path(deepPage)}`, { signal: AbortSignal.timeout(30_000) });
  const body = (await check.json()) as { data?: unknown[]; pagination?: { total?: number } };
  if (check.status !== 200 || body.pagination?.total !== table.walletRows || !body.data?.length) {
    throw new Error(`history answered ${check.status}: ${JSON.stringify(body).slice(0, 300)}`);
  }

  // The same last page by keyset: the cursor the page before it hands out.
  const before = await fetch(`http://127.0.0.1:${api.port}${path(deepPage - 1)}`, {
    signal: AbortSignal.timeout(30_000),
  });
  const cursor = ((await before.json()) as { pagination?: { nextCursor?: string } }).pagination?.nextCursor;
  const cursorPath = `/api/v1/transaction/history?addresses=${WALLET}&perPage=${PER_PAGE}&cursor=${cursor}`;

  const spec = (label: string, page: number | 'cursor', durationMs: number, warmupMs: number) => ({
    label,
    port: api.port,
    requests: [httpRequest('GET', api.port, page === 'cursor' ? cursorPath : path(page))],
    connections: 4,
    durationMs,
    warmupMs,
    maxRequests: 1_000_000,
  });
  const first = 'page 1';
  const deep = `page ${deepPage}`;
  const byCursor = `page ${deepPage} by cursor`;
  const targets = [first, deep, ...(cursor ? [byCursor] : [])];
  const pageOf = (label: string) => (label === first ? 1 : label === deep ? deepPage : 'cursor');
  await interleaved(
    b.load,
    targets.map((label) => spec(label, pageOf(label), b.ms(1), 0)),
    1,
    () => {},
  );
  const r = await interleaved(
    b.load,
    targets.map((label) => spec(label, pageOf(label), b.ms(3), b.ms(0.5, 250))),
    4,
  );
  const plans = { first: await explain(b, 1), deep: await explain(b, deepPage) };
  b.report.details.history = { table, perPage: PER_PAGE, deepPage, results: r, plans };

  const p1 = r[first] as Aggregate;
  const pd = r[deep] as Aggregate;
  for (const agg of Object.values(r)) {
    const odd = unexpected(agg, [200]);
    if (odd) b.report.note(`unexpected answers — ${odd}`);
  }
  const label = `history (${table.walletRows} of ${table.rows} rows)`;
  b.report.add({ section: SECTION, name: `${label} page 1 p50`, value: p1.p50Ms, unit: 'ms' });
  b.report.add({ section: SECTION, name: `${label} page 1 p99`, value: p1.p99Ms, unit: 'ms' });
  b.report.add({ section: SECTION, name: `${label} page 1`, value: p1.rps, unit: 'req/s' });
  const vsFirst = { section: SECTION, baselineName: 'page 1' };
  b.report.add({ ...vsFirst, name: `${label} ${deep} p50`, value: pd.p50Ms, unit: 'ms', baseline: p1.p50Ms });
  b.report.add({ ...vsFirst, name: `${label} ${deep} p99`, value: pd.p99Ms, unit: 'ms', baseline: p1.p99Ms });
  b.report.add({
    ...vsFirst,
    name: `${label} ${deep}`,
    value: pd.rps,
    unit: 'req/s',
    baseline: p1.rps,
    gate: { key: 'history-deep-page', target: 0.8 },
  });
  const pc = r[byCursor];
  if (pc) {
    b.report.add({ ...vsFirst, name: `${label} ${byCursor} p99`, value: pc.p99Ms, unit: 'ms', baseline: p1.p99Ms });
    b.report.add({ ...vsFirst, name: `${label} ${byCursor}`, value: pc.rps, unit: 'req/s', baseline: p1.rps });
  } else b.report.note('history: no nextCursor on the page before the last');
  b.report.add({
    ...vsFirst,
    name: `history SQL ${deep}: rows query (EXPLAIN ANALYZE)`,
    value: plans.deep.rowsMs,
    unit: 'ms',
    baseline: plans.first.rowsMs,
  });
  b.report.add({
    section: SECTION,
    name: 'history SQL: count(*) (EXPLAIN ANALYZE)',
    value: plans.first.countMs,
    unit: 'ms',
  });
}
