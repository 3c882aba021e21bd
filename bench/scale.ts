/**
 * Scale: a year of data. Two datasets from the same generator, 100k and 10M swaps (BENCH_SCALE_SWAPS),
 * each with twice as many locks, spread over a year, skewed as real traffic is (`skewSwaps`: one recipient
 * of 40 % of the swaps, one code on half, one source asset in most) and planned generic (`plan_cache_mode`
 * set on the database), as prepared statements end up. Every dashboard tRPC query is timed through the
 * built web server (Next on the custom server) signed in as an admin, every range; every public read
 * (history with each filter, the legacy history, status by id and by hash) through Next and the lean
 * server. For each call: p50 and p99 at both sizes and the growth of the p50 (large ÷ small), against the
 * targets (dashboard p50 ≤ 150 ms, public p99 ≤ 50 ms at the large size, growth ≤ 2). Also bytes per swap
 * and how long each load took. The databases are dropped at the end unless BENCH_SCALE_KEEP=1.
 */
import { affiliateId } from '../drizzle/seed/swap-dataset';
import { parseConfig } from '../server/config';
import { createAppContext } from '../server/context';
import { childEnv } from './config';
import { type Aggregate, interleaved, unexpected } from './load';
import { type NextHandle, startNext } from './procs';
import { diskUse, dropScaleDataset, SCALE_TAG, type ScaleDataset, SKEW, scaleDataset } from './scale-dataset';
import { sessionCookie } from './session';
import type { ApiServers, Bench } from './setup';

const SECTION = 'scale';
export const SMALL_SWAPS = 100_000;
const DASHBOARD_P50_TARGET_MS = 150;
const PUBLIC_P99_TARGET_MS = 50;
const GROWTH_TARGET = 2;

export const scaleSettings = (env: Record<string, string | undefined>) => ({
  largeSwaps: Number(env.BENCH_SCALE_SWAPS ?? 10_000_000),
  keep: env.BENCH_SCALE_KEEP === '1',
});

const sizeLabel = (swaps: number) =>
  swaps >= 1_000_000 ? `${swaps / 1_000_000}M` : swaps >= 1000 ? `${swaps / 1000}k` : String(swaps);

interface Call {
  /** Stable across sizes: what the rows are named by. */
  name: string;
  kind: 'dashboard' | 'public';
  /** Request paths (rotated), by server. */
  paths: string[];
  servers: ('next' | 'lean')[];
}

const trpcPath = (procedure: string, input?: unknown) =>
  `/api/trpc/${procedure}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`}`;

const rawGet = (port: number, path: string, cookie?: string) =>
  [
    `GET ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    'Connection: keep-alive',
    'Accept: application/json',
    ...(cookie ? [`Cookie: ${cookie}`] : []),
    '',
    '',
  ].join('\r\n');

interface Samples {
  ids: string[];
  hashes: string[];
  wallet: string;
  hotWallet: string;
  topOwner: string;
}

/** Real values of the dataset to ask about: swaps spread over the whole year, an ordinary and a hot wallet. */
async function samples(sql: ReturnType<typeof createAppContext>['sql'], swaps: number): Promise<Samples> {
  const picks = Array.from({ length: 400 }, (_, k) => 1 + Math.floor(((k + 0.5) / 400) * swaps));
  const ids = picks.map((i) => `tx_${SCALE_TAG}${String(i).padStart(22 - SCALE_TAG.length, '0')}`);
  const rows = await sql<{ id: string; hash: string; wallet: string; src_chain: string }[]>`
    select id, hash, wallet_address as wallet, src_chain from transactions where id = any(${`{${ids.join(',')}}`}::text[])`;
  const hot = await sql<{ wallet: string }[]>`
    select wallet_address as wallet from transactions
    where wallet_key = '0x' || substr(md5('w0') || md5('v0'), 1, 40) limit 1`;
  const ordinary = rows.find((r) => r.wallet.startsWith('0x'))?.wallet;
  if (!rows.length || !hot[0] || !ordinary) throw new Error('scale: the dataset has no swaps to sample');
  return {
    ids: rows.map((r) => r.id),
    hashes: rows.filter((r) => r.hash).map((r) => r.hash),
    wallet: ordinary,
    hotWallet: hot[0].wallet,
    topOwner: affiliateId(1),
  };
}

function calls(s: Samples): Call[] {
  const dashboard = (name: string, procedure: string, input?: unknown): Call => ({
    name: `dashboard ${name}`,
    kind: 'dashboard',
    paths: [trpcPath(procedure, input)],
    servers: ['next'],
  });
  const publicRead = (name: string, paths: string[]): Call => ({
    name: `public ${name}`,
    kind: 'public',
    paths,
    servers: ['next', 'lean'],
  });
  const hash = s.hashes[0] as string;
  const id = s.ids[0] as string;
  const history = (query: string) => `/api/v1/transaction/history${query ? `?${query}` : ''}`;
  return [
    ...(['24h', '7d', '30d'] as const).flatMap((range) => [
      dashboard(`locks.activity ${range}`, 'locks.activity', { range }),
      dashboard(`rateLimits.activity ${range}`, 'rateLimits.activity', { range }),
      dashboard(`operations.trends ${range}`, 'operations.trends', { range }),
      dashboard(`affiliates.overview ${range}`, 'affiliates.overview', { range }),
    ]),
    dashboard('affiliates.overview 30d, one affiliate', 'affiliates.overview', { range: '30d', ownerId: s.topOwner }),
    dashboard('operations.overview', 'operations.overview'),
    dashboard('transactions.search (the page as it opens)', 'transactions.search', { perPage: 25 }),
    dashboard('transactions.search by hash', 'transactions.search', { perPage: 25, query: hash }),
    dashboard('transactions.search by hash prefix', 'transactions.search', { perPage: 25, query: hash.slice(0, 12) }),
    dashboard('transactions.search by hot wallet', 'transactions.search', { perPage: 25, query: s.hotWallet }),
    dashboard('transactions.search FAILED', 'transactions.search', { perPage: 25, statuses: ['FAILED'] }),
    dashboard('transactions.search provider', 'transactions.search', { perPage: 25, provider: 'CHAINFLIP' }),
    dashboard('transactions.search chain', 'transactions.search', { perPage: 25, chain: 'solana' }),
    dashboard('transactions.search referral code', 'transactions.search', {
      perPage: 25,
      referralCode: 'PARTNER-01-01',
    }),
    dashboard('transactions.search stale', 'transactions.search', { perPage: 25, stale: true }),
    dashboard('transactions.search late', 'transactions.search', { perPage: 25, late: true }),
    dashboard('transactions.search PENDING, not late', 'transactions.search', {
      perPage: 25,
      statuses: ['PENDING'],
      late: false,
    }),
    dashboard('transactions.search PENDING or REFUND, not stale', 'transactions.search', {
      perPage: 25,
      statuses: ['PENDING', 'REFUND'],
      stale: false,
    }),
    dashboard('transactions.search most late first', 'transactions.search', {
      perPage: 25,
      sort: { field: 'lateness', direction: 'desc' },
    }),
    dashboard('transactions.search largest first', 'transactions.search', {
      perPage: 25,
      sort: { field: 'amountUsd', direction: 'desc' },
    }),
    dashboard('transactions.search page 40', 'transactions.search', { perPage: 25, page: 40 }),
    dashboard('transactions.detail', 'transactions.detail', { id }),
    dashboard('audit.list (the page as it opens)', 'audit.list', {}),
    dashboard('audit.list by the busiest actor', 'audit.list', { actor: 'usr_1' }),
    dashboard('audit.list by actor email', 'audit.list', { actor: 'STAFF7@switchyard.test' }),
    dashboard('audit.list by action', 'audit.list', { action: 'auth.sign_in_failed' }),
    dashboard('audit.list by target', 'audit.list', { targetType: 'transaction', targetId: 'tx_123' }),
    dashboard('audit.failedSignIns 24h', 'audit.failedSignIns', { window: '24h' }),
    dashboard('audit.failedSignIns 7d', 'audit.failedSignIns', { window: '7d' }),
    dashboard('webhooks.transactionDeliveries', 'webhooks.transactionDeliveries', { transactionId: id }),
    dashboard('affiliates.list', 'affiliates.list'),
    dashboard('users.list', 'users.list'),
    dashboard('webhooks.list', 'webhooks.list'),
    dashboard('session.me', 'session.me'),
    publicRead('history (no filter)', [history('')]),
    publicRead('history page 2 by cursor', ['cursor']),
    publicRead('history ?addresses= (a wallet)', [history(`addresses=${s.wallet}`)]),
    publicRead('history ?addresses= (a hot wallet)', [history(`addresses=${s.hotWallet}`)]),
    publicRead('history ?statuses=REFUND', [history('statuses=REFUND')]),
    publicRead('history ?finalizedOnly=true', [history('finalizedOnly=true')]),
    publicRead('history ?referralCode=', [history('referralCode=PARTNER-01-01')]),
    publicRead('history ?referralCode=&statuses=FAILED', [history('referralCode=PARTNER-01-01&statuses=FAILED')]),
    publicRead(
      'history ?transactionId=',
      s.ids.map((i) => history(`transactionId=${i}`)),
    ),
    publicRead(
      'history ?query=<hash>',
      s.hashes.map((h) => history(`query=${h}`)),
    ),
    publicRead('history ?query=USDC', [history('query=USDC')]),
    publicRead('history ?query=relay', [history('query=relay')]),
    publicRead('history ?query=<referral code>', [history('query=PARTNER-01-02')]),
    publicRead('history ?query=<wallet>', [history(`query=${s.wallet}`)]),
    publicRead('history ?query=ETH&statuses=REFUND', [history('query=ETH&statuses=REFUND')]),
    publicRead('history ?query=<the recipient of 40 %>', [history(`query=${SKEW.hotRecipient}`)]),
    publicRead('history ?addresses=<the recipient of 40 %>', [history(`addresses=${SKEW.hotRecipient}`)]),
    publicRead('history ?query=<the code on 50 %>', [history(`query=${SKEW.hotCode}`)]),
    publicRead('history ?referralCode=<the code on 50 %>&query=ETH', [
      history(`referralCode=${SKEW.hotCode}&query=ETH`),
    ]),
    publicRead(
      'history ?query=<terms naming nothing>',
      SKEW.noMatch.map((term) => history(`query=${term}`)),
    ),
    publicRead('history ?query=e&page=200&perPage=50', [history('query=e&page=200&perPage=50')]),
    publicRead('legacy history ?search=<the recipient of 40 %>', [
      `/api/transaction/history?search=${SKEW.hotRecipient}`,
    ]),
    publicRead('legacy history ?search=0xab', ['/api/transaction/history?search=0xab']),
    publicRead(
      'legacy history ?search=<hash>',
      s.hashes.map((h) => `/api/transaction/history?search=${h}`),
    ),
    publicRead('legacy history (no filter)', ['/api/transaction/history']),
    publicRead(
      'status by id',
      s.ids.map((i) => `/api/v1/transaction/status?transactionId=${i}`),
    ),
    publicRead(
      'status by hash',
      s.hashes.map((h) => `/api/v1/transaction/status?hash=${h}`),
    ),
  ];
}

type Measured = Map<string, Aggregate>;

const resultKey = (call: Call, server: 'next' | 'lean') =>
  `${call.name}${call.kind === 'public' ? ` (${server})` : ''}`;

interface Served {
  dataset: ScaleDataset;
  next: NextHandle;
  lean: ApiServers;
  cookie: string;
  calls: Call[];
  cursor: string;
}

/** The built web server and the lean server on one dataset, an admin signed in, and what to ask them. */
async function serve(
  b: Bench,
  dataset: ScaleDataset,
  besideRunning: boolean,
  started: (stop: () => Promise<void>) => void,
): Promise<Served> {
  const env = { ...b.env, DATABASE_URL: dataset.url };
  const next = await startNext(childEnv(env), { lockWaitSeconds: b.settings.nextLockWaitSeconds, besideRunning });
  started(() => next.stop());
  const lean = await b.startApi({ DATABASE_URL: dataset.url });
  started(() => lean.child.stop());
  const cookie = await sessionCookie(env, 'admin');
  const app = createAppContext(parseConfig(env));
  const found = await samples(app.sql, dataset.swaps).finally(() => app.close());
  const firstPage = await fetch(`http://127.0.0.1:${lean.port}/api/v1/transaction/history`);
  const cursor = ((await firstPage.json()) as { pagination?: { nextCursor?: string } }).pagination?.nextCursor ?? '';
  return { dataset, next, lean, cookie, calls: calls(found), cursor };
}

const specOf = (b: Bench, served: Served, call: Call, server: 'next' | 'lean') => {
  const port = server === 'next' ? served.next.port : served.lean.port;
  return {
    label: `${sizeLabel(served.dataset.swaps)}|${resultKey(call, server)}`,
    port,
    requests: call.paths.map((p) =>
      rawGet(port, p === 'cursor' ? `/api/v1/transaction/history?cursor=${served.cursor}` : p, served.cookie),
    ),
    connections: 1,
    durationMs: b.ms(2, 1000),
    warmupMs: b.ms(0.3, 200),
    maxRequests: 100_000,
    timeoutMs: 30_000,
  };
};

/**
 * Every call against both datasets' servers, the two sizes of a call one after the other in each round
 * (so the machine's drift hits both alike): a check that each answers 200, a warm-up, then
 * interleaved rounds.
 */
async function measure(b: Bench, small: ScaleDataset, large: ScaleDataset) {
  const stops: (() => Promise<void>)[] = [];
  try {
    const servedSmall = await serve(b, small, false, (stop) => stops.push(stop));
    const servedLarge = await serve(b, large, true, (stop) => stops.push(stop));
    const specs = servedSmall.calls.flatMap((call, i) =>
      call.servers.flatMap((server) => [
        { spec: specOf(b, servedSmall, call, server), cookie: servedSmall.cookie },
        { spec: specOf(b, servedLarge, servedLarge.calls[i] as Call, server), cookie: servedLarge.cookie },
      ]),
    );
    const usable = [];
    for (const { spec, cookie } of specs) {
      const path = (spec.requests[0] as string).split(' ')[1] as string;
      const res = await fetch(`http://127.0.0.1:${spec.port}${path}`, {
        headers: { cookie },
        signal: AbortSignal.timeout(60_000),
      }).catch((error: Error) => ({ status: 0, text: async () => error.message }));
      if (res.status === 200) usable.push(spec);
      else b.report.note(`scale: ${spec.label} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    }
    await interleaved(
      b.load,
      usable.map((s) => ({ ...s, durationMs: b.ms(0.5, 300), warmupMs: 0 })),
      1,
      () => {},
    );
    const results = await interleaved(b.load, usable, 3, (line) => console.log(`   ${line}`));
    for (const agg of Object.values(results)) {
      const odd = unexpected(agg, [200]);
      if (odd) b.report.note(`scale: unexpected answers — ${odd}`);
    }
    const bySize = (label: string) =>
      new Map(
        Object.entries(results)
          .filter(([key]) => key.startsWith(`${label}|`))
          .map(([key, agg]) => [key.slice(label.length + 1), agg]),
      );
    return {
      small: bySize(sizeLabel(small.swaps)),
      large: bySize(sizeLabel(large.swaps)),
      calls: servedSmall.calls,
    };
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
  }
}

function reportCalls(b: Bench, small: ScaleDataset, large: ScaleDataset, s: Measured, l: Measured, all: Call[]) {
  const [sl, ll] = [sizeLabel(small.swaps), sizeLabel(large.swaps)];
  for (const call of all) {
    for (const server of call.servers) {
      const key = resultKey(call, server);
      const [a, z] = [s.get(key), l.get(key)];
      if (!a || !z) continue;
      const row = (name: string, value: number, unit: string, target?: number) =>
        b.report.add({
          section: SECTION,
          name: `${key} ${name}`,
          value,
          unit,
          ...(target === undefined ? {} : { target }),
        });
      row(`p50 @${sl}`, a.p50Ms, 'ms');
      row(`p99 @${sl}`, a.p99Ms, 'ms');
      row(`p50 @${ll}`, z.p50Ms, 'ms', call.kind === 'dashboard' ? DASHBOARD_P50_TARGET_MS : undefined);
      row(`p99 @${ll}`, z.p99Ms, 'ms', call.kind === 'public' ? PUBLIC_P99_TARGET_MS : undefined);
      b.report.add({
        section: SECTION,
        name: `${key} growth ${ll}÷${sl} (p50)`,
        value: a.p50Ms > 0 ? z.p50Ms / a.p50Ms : 0,
        unit: 'ratio',
        baseline: a.p50Ms,
        baselineName: `p50 @${sl}`,
        target: GROWTH_TARGET,
      });
    }
  }
}

async function reportDisk(b: Bench, dataset: ScaleDataset) {
  const use = await diskUse(dataset.url);
  const per = (bytes: number) => bytes / dataset.swaps;
  const label = sizeLabel(dataset.swaps);
  const add = (name: string, bytes: number) =>
    b.report.add({ section: SECTION, name: `bytes per swap @${label}: ${name}`, value: per(bytes), unit: 'B' });
  let total = 0;
  for (const table of ['transactions', 'locks', 'transaction_events']) {
    const t = use.find((u) => u.table === table);
    if (!t) continue;
    add(`${table} rows`, t.rowBytes);
    add(`${table} indexes`, t.indexBytes);
    total += t.rowBytes + t.indexBytes;
  }
  const rollups = use.filter((u) => !['transactions', 'locks', 'transaction_events'].includes(u.table));
  const rollupBytes = rollups.reduce((sum, u) => sum + u.rowBytes + u.indexBytes, 0);
  add('rollups and counters', rollupBytes);
  add('total', total + rollupBytes);
  b.report.details[`scale disk ${label}`] = use;
}

export async function scaleSection(b: Bench): Promise<void> {
  const { largeSwaps, keep } = scaleSettings(process.env);
  const sizes = [SMALL_SWAPS, largeSwaps];
  const datasets: ScaleDataset[] = [];
  try {
    for (const swaps of sizes) datasets.push(await scaleDataset(b.settings, swaps, keep));
    const [small, large] = datasets as [ScaleDataset, ScaleDataset];
    for (const d of datasets) {
      b.report.add({
        section: SECTION,
        name: `load of ${sizeLabel(d.swaps)} swaps (${d.locks.made.toLocaleString('en-US')} locks, ${d.locks.kept.toLocaleString('en-US')} kept by the retention)${d.reused ? ', kept from an earlier run' : ''}`,
        value: d.loadSeconds,
        unit: 's',
      });
      await reportDisk(b, d);
    }
    b.report.details.scaleLoads = datasets.map((d) => ({
      swaps: d.swaps,
      phases: d.phases,
      madeAt: d.madeAt,
      reused: d.reused,
    }));
    const measured = await measure(b, small, large);
    reportCalls(b, small, large, measured.small, measured.large, measured.calls);
  } finally {
    if (!keep) for (const swaps of sizes) await dropScaleDataset(b.settings, swaps);
  }
}
