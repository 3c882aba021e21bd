/**
 * 1. HTTP: status-by-hash through the app (Next on the custom server, and the lean server) against
 * bare node:http + postgres.js running the same indexed query; Next's status route against Next's
 * constant-JSON route (`/api/health`) in the same build; settled swaps and pending ones apart, since
 * only a settled answer can be kept. Interleaved rounds, p50/p99 for each.
 */
import { childEnv } from './config';
import { insertSyntheticTransactions } from './fixtures';
import { type Aggregate, pairedRatio, unexpected, warmedGetRounds } from './load';
import { type NextHandle, startChild, startNext } from './procs';
import type { GateTarget } from './report';
import type { Bench } from './setup';

const SECTION = 'http';
const SEEDED = 10_000;
const SAMPLE_HASHES = 1000;
/** At the gate's small scale Next's rounds would last under a second: too short to say anything of a route. */
const ROUND_MIN_MS = 2000;

/**
 * Settled swaps (answered from memory after their first read: nothing in them can change) and pending
 * ones (read on every request, as a wallet polling a swap in flight is), never polled by a worker here.
 */
async function seedStatusRows(b: Bench): Promise<{ settled: string[]; pending: string[] }> {
  for (const [tag, status] of [
    ['status', 'SUCCESS'],
    ['pstatus', 'PENDING'],
  ] as const) {
    await insertSyntheticTransactions(b.sql, {
      tag,
      count: SEEDED,
      status,
      assets: b.assets,
      wallet: `'0x' || lpad(to_hex(i), 40, '0')`,
      createdAt: `now() - i * interval '1 minute'`,
      hash: `md5('${tag}-a' || i) || md5('${tag}-b' || i)`,
    });
  }
  await b.sql`analyze transactions`;
  const sample = async (tag: string) =>
    (
      await b.sql<{ hash: string }[]>`select hash from transactions
        where id like ${`tx_${tag}%`} order by md5(id) limit ${SAMPLE_HASHES}`
    ).map((r) => r.hash);
  return { settled: await sample('status'), pending: await sample('pstatus') };
}

const BODY_SAMPLE = 100;

/** The status bodies of a sample of hashes, as served without any validator. */
async function statusBodies(
  port: number,
  paths: string[],
): Promise<Map<string, { text: string; etag: string | null }>> {
  const out = new Map<string, { text: string; etag: string | null }>();
  for (const path of paths.slice(0, BODY_SAMPLE)) {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(10_000) });
    out.set(path, { text: await res.text(), etag: res.headers.get('etag') });
  }
  return out;
}

/**
 * Caching must never change what a client reads: after the load, every sampled body is byte for
 * byte what it was before, and its validator answers 304 with no body.
 */
async function checkCachedBodies(b: Bench, port: number, before: Map<string, { text: string; etag: string | null }>) {
  const after = await statusBodies(port, [...before.keys()]);
  let changed = 0;
  let notRevalidated = 0;
  for (const [path, first] of before) {
    if (after.get(path)?.text !== first.text) changed++;
    if (!first.etag) {
      notRevalidated++;
      continue;
    }
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      headers: { 'if-none-match': first.etag },
      signal: AbortSignal.timeout(10_000),
    });
    if (res.status !== 304 || (await res.text()) !== '') notRevalidated++;
  }
  if (changed) b.report.violation(`http: ${changed} of ${before.size} status bodies changed between before and after`);
  if (notRevalidated) {
    b.report.violation(`http: ${notRevalidated} of ${before.size} status answers did not revalidate with their ETag`);
  }
}

async function expectOk(url: string) {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${text.slice(0, 300)}`);
}

export async function httpSection(b: Bench): Promise<void> {
  const { settled: hashes, pending } = await seedStatusRows(b);
  const api = await b.api();
  const bare = await startChild('bare', new URL('./serve.ts', import.meta.url).pathname, ['bare'], {
    env: childEnv(b.env),
  });
  let next: NextHandle | undefined;
  try {
    if (b.settings.skipNext) b.report.note('Next not measured: BENCH_SKIP_NEXT=1');
    else
      try {
        next = await startNext(childEnv(b.env), { lockWaitSeconds: b.settings.nextLockWaitSeconds });
      } catch (error) {
        b.report.note(`Next not measured: ${(error as Error).message.slice(0, 400)}`);
      }
    const statusPath = (h: string) => `/api/v1/transaction/status?hash=${h}`;
    const targets = [
      { label: 'bare', port: bare.info.port as number, paths: hashes.map((h) => `/status?hash=${h}`) },
      { label: 'lean', port: api.port, paths: hashes.map(statusPath) },
      { label: 'lean-pending', port: api.port, paths: pending.map(statusPath) },
      ...(next
        ? [
            { label: 'next-status', port: next.port, paths: hashes.map(statusPath) },
            { label: 'next-pending', port: next.port, paths: pending.map(statusPath) },
            { label: 'next-health', port: next.port, paths: ['/api/health'] },
          ]
        : []),
    ];
    for (const t of targets) await expectOk(`http://127.0.0.1:${t.port}${t.paths[0]}`);
    const leanPaths = [...hashes.slice(0, BODY_SAMPLE / 2), ...pending.slice(0, BODY_SAMPLE / 2)].map(statusPath);
    const bodiesBefore = await statusBodies(api.port, leanPaths);

    const results = await warmedGetRounds(b.load, targets, b.settings.connections, b.ms, ROUND_MIN_MS);
    b.report.details.http = results;
    report(b, results);
    await checkCachedBodies(b, api.port, bodiesBefore);
  } finally {
    await next?.stop();
    await bare.stop();
  }
}

function report(b: Bench, r: Record<string, Aggregate>) {
  const bare = r.bare as Aggregate;
  for (const agg of Object.values(r)) {
    const odd = unexpected(agg, [200]);
    if (odd) b.report.note(`unexpected answers — ${odd}`);
  }
  const add = (name: string, agg: Aggregate, base: Aggregate | undefined, baseName: string, gate?: GateTarget) => {
    b.report.add({
      section: SECTION,
      name: `${name} req/s`,
      value: agg.rps,
      unit: 'req/s',
      baseline: base?.rps,
      baselineName: base && baseName,
      gate,
    });
    for (const q of ['p50', 'p99'] as const) {
      b.report.add({
        section: SECTION,
        name: `${name} ${q}`,
        value: agg[`${q}Ms`],
        unit: 'ms',
        baseline: base?.[`${q}Ms`],
        baselineName: base && baseName,
      });
    }
  };
  add('status: bare node:http+postgres.js', bare, undefined, '');
  add('status: lean server', r.lean as Aggregate, bare, 'bare', { key: 'lean-status', target: 0.6 });
  add('status, pending swaps: lean server', r['lean-pending'] as Aggregate, bare, 'bare');
  if (r['next-status'] && r['next-pending'] && r['next-health']) {
    add('status: Next', r['next-status'], bare, 'bare');
    add('status, pending swaps: Next', r['next-pending'], bare, 'bare');
    add('constant JSON: Next /api/health', r['next-health'], undefined, '');
    for (const [name, agg, gate] of [
      ['Next status ÷ Next constant route', r['next-status'], { key: 'next-status', target: 0.9 }],
      ['Next status, pending swaps ÷ Next constant route', r['next-pending'], undefined],
    ] as const) {
      b.report.add({
        section: SECTION,
        name,
        value: agg.rps,
        unit: 'req/s',
        baseline: r['next-health'].rps,
        baselineName: 'Next /api/health',
        ratio: pairedRatio(agg, r['next-health']),
        gate,
      });
    }
  }
}
