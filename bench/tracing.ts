/**
 * Tracing's cost on the status path. Off (no OTEL_EXPORTER_OTLP_ENDPOINT, as by default) the product
 * loads no OpenTelemetry code at all, so the lean server's status ratio to the bare server must be
 * what the http section reads (interleaved rounds: bare, lean off, for settled swaps answered from memory
 * and pending ones read each time). On, every request is a server span (and a pending swap's read a SQL
 * span) exported to an OTLP/HTTP sink on loopback, or with 1% of new traces kept, or none; lean and Next
 * (unless BENCH_SKIP_NEXT), on settled swaps.
 * Traced against untraced is read side by side (`sideBySideRounds`): on this 2-core VM a server's rounds
 * moved by up to 2× from one moment to the next when servers took turns, more than 1% tracing costs,
 * while two servers loaded at once meet the same moment. The 1% rows pair `PER_SIDE` traced processes
 * with as many untraced ones (a process' own luck, its JIT and heap layout, is pooled too); the other
 * servers are paired with the first untraced one, a second untraced one among them (the noise).
 * The section's own servers take small database pools: a dozen processes would otherwise take more
 * connections than Postgres' 100.
 */
import { createServer, type Server } from 'node:http';
import { listen } from '../server/lifecycle';
import { childEnv } from './config';
import { insertSyntheticTransactions } from './fixtures';
import {
  type Aggregate,
  type GetTarget,
  type SideBySidePair,
  sideBySideRounds,
  unexpected,
  warmedGetRounds,
} from './load';
import { type NextHandle, startChild, startNext } from './procs';
import type { Bench } from './setup';

const SECTION = 'tracing';
const SEEDED = 5_000;
const SAMPLE_HASHES = 1000;
/** The share of new traces the sampled server keeps (OTEL_TRACES_SAMPLER_ARG). */
const SAMPLED = 0.01;
/** As in the http section: shorter rounds of Next say more about JIT and GC than about the route. */
const ROUND_MIN_MS = 2000;
/** DATABASE_POOL_MAX of the servers this section starts; settled swaps are answered from memory. */
const POOL = { DATABASE_POOL_MAX: '4' };
/** Traced processes (and untraced ones beside them) behind each 1% row. */
const PER_SIDE = 3;
/** Each server of a side-by-side pair: enough to keep it busy whenever the scheduler gives it a core. */
const PAIR_CONNECTIONS = 16;
const PAIR_ROUNDS = 6;
/** A lean server's rounds side by side, and how long each is warmed alone first. */
const LEAN_PAIR_SECONDS = 3;
const LEAN_WARM_SECONDS = 4;
/** The same for Next: its JIT warms over thousands of requests, and a major GC of it takes ~100 ms. */
const NEXT_PAIR_SECONDS = 5;
const NEXT_WARM_SECONDS = 12;

/** `prefix`, `prefix-2`, …: the labels of one side's processes. */
const sideOf = (prefix: string) =>
  Array.from({ length: PER_SIDE }, (_, k) => (k === 0 ? prefix : `${prefix}-${k + 1}`));

/** A collector that takes every export and keeps nothing but a count. */
async function startSink() {
  let exports = 0;
  let bytes = 0;
  const server: Server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.byteLength;
    });
    req.on('end', () => {
      exports++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await listen(server, 0, '127.0.0.1');
  return {
    endpoint: `http://127.0.0.1:${port}`,
    received: () => ({ exports, bytes }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Next untraced and traced with `SAMPLED` of new traces kept (`PER_SIDE` processes each), with none kept, and in full: one build. */
async function startNextServers(b: Bench, endpoint: string): Promise<Record<string, NextHandle>> {
  const servers: Record<string, NextHandle> = {};
  if (b.settings.skipNext) {
    b.report.note('tracing: Next not measured (BENCH_SKIP_NEXT=1)');
    return servers;
  }
  const untraced = { ...b.env, ...POOL };
  const traced = { ...untraced, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint };
  const sampled = { ...traced, OTEL_TRACES_SAMPLER_ARG: String(SAMPLED) };
  const [first, ...rest] = [
    ...sideOf('next-off').map((label) => [label, untraced] as const),
    ...sideOf('next-sampled').map((label) => [label, sampled] as const),
    ['next-never', { ...traced, OTEL_TRACES_SAMPLER_ARG: '0' }] as const,
    ['next-on', traced] as const,
  ];
  try {
    if (first)
      servers[first[0]] = await startNext(childEnv(first[1]), { lockWaitSeconds: b.settings.nextLockWaitSeconds });
    for (const [label, env] of rest) servers[label] = await startNext(childEnv(env), { besideRunning: true });
  } catch (error) {
    b.report.note(`tracing: Next not measured: ${(error as Error).message.slice(0, 400)}`);
    await Promise.all(Object.values(servers).map((s) => s.stop()));
    return {};
  }
  return servers;
}

async function seed(b: Bench) {
  const hashes: Record<'settled' | 'pending', string[]> = { settled: [], pending: [] };
  for (const [kind, tag, status] of [
    ['settled', 'trset', 'SUCCESS'],
    ['pending', 'trpend', 'PENDING'],
  ] as const) {
    await insertSyntheticTransactions(b.sql, {
      tag,
      count: SEEDED,
      status,
      assets: b.assets,
      wallet: `'0x' || lpad(to_hex(i + 900000), 40, '0')`,
      createdAt: `now() - i * interval '1 minute'`,
      hash: `md5('${tag}-a' || i) || md5('${tag}-b' || i)`,
    });
    hashes[kind] = (
      await b.sql<{ hash: string }[]>`select hash from transactions
        where id like ${`tx_${tag}%`} order by md5(id) limit ${SAMPLE_HASHES}`
    ).map((r) => r.hash);
  }
  await b.sql`analyze transactions`;
  return hashes;
}

export async function tracingSection(b: Bench): Promise<void> {
  const hashes = await seed(b);
  const sink = await startSink();
  const traced = { ...b.env, ...POOL, OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint };
  const sampledEnv = { ...traced, OTEL_TRACES_SAMPLER_ARG: String(SAMPLED) };
  const serve = (name: string, mode: 'lean' | 'bare', env: Record<string, string>) =>
    startChild(name, new URL('./serve.ts', import.meta.url).pathname, [mode], { env: childEnv(env) });
  // Every untraced server started as the traced ones are (not the bench's shared one, which other rounds warm).
  const untraced = await Promise.all(sideOf('api-off').map((name) => serve(name, 'lean', { ...b.env, ...POOL })));
  const on = await serve('api-traced', 'lean', traced);
  const sampled = await Promise.all(sideOf('api-sampled').map((name) => serve(name, 'lean', sampledEnv)));
  const never = await serve('api-never', 'lean', { ...traced, OTEL_TRACES_SAMPLER_ARG: '0' });
  const bare = await serve('bare', 'bare', b.env);
  const next = await startNextServers(b, sink.endpoint);
  try {
    const statusPaths = (of: string[]) => of.map((h) => `/api/v1/transaction/status?hash=${h}`);
    const target = (label: string, port: number, pid?: number, paths = statusPaths(hashes.settled)): GetTarget => ({
      label,
      port,
      pid,
      paths,
    });
    const child = (label: string, handle: { info: Record<string, unknown>; pid?: number }, paths?: string[]) =>
      target(label, handle.info.port as number, handle.pid, paths);
    const untracedLean = untraced.map((handle, k) => child(sideOf('off')[k] as string, handle));
    const offPending = child('off-pending', untraced[0] as (typeof untraced)[number], statusPaths(hashes.pending));
    const nextTarget = (label: string) => {
      const server = next[label];
      return server && target(label, server.port, server.pid);
    };
    const nextUntraced = sideOf('next-off').map(nextTarget);
    const pairsOf = (group: string, values: (GetTarget | undefined)[], baselines: (GetTarget | undefined)[]) =>
      values.flatMap((value, k) => {
        const baseline = baselines[k];
        return value && baseline ? [{ group, value, baseline }] : [];
      });
    const pairRounds = (pairs: SideBySidePair[], seconds: number, warmSeconds: number) =>
      sideBySideRounds(b.load, pairs, {
        connections: PAIR_CONNECTIONS,
        durationMs: b.ms(seconds, ROUND_MIN_MS),
        warmupMs: b.ms(0.5, 250),
        warmMs: b.ms(warmSeconds, ROUND_MIN_MS),
        rounds: PAIR_ROUNDS,
      });
    const side = {
      ...(await pairRounds(
        [
          ...pairsOf(
            'lean 1%',
            sampled.map((handle, k) => child(sideOf('on-sampled')[k] as string, handle)),
            untracedLean,
          ),
          ...pairsOf('lean never', [child('on-never', never)], untracedLean),
          ...pairsOf('lean 100%', [child('on', on)], untracedLean),
          ...pairsOf('lean pending 100%', [child('on-pending', on, statusPaths(hashes.pending))], [offPending]),
          ...pairsOf('lean noise', [untracedLean[1]], untracedLean),
        ],
        LEAN_PAIR_SECONDS,
        LEAN_WARM_SECONDS,
      )),
      ...(await pairRounds(
        [
          ...pairsOf('next 1%', sideOf('next-sampled').map(nextTarget), nextUntraced),
          ...pairsOf('next never', [nextTarget('next-never')], nextUntraced),
          ...pairsOf('next 100%', [nextTarget('next-on')], nextUntraced),
          ...pairsOf('next noise', [nextUntraced[1]], nextUntraced),
        ],
        NEXT_PAIR_SECONDS,
        NEXT_WARM_SECONDS,
      )),
    };
    // The untraced server against the bare one, as the http section reads it: in turns, after the pairs.
    const r = await warmedGetRounds(
      b.load,
      [
        child(
          'bare',
          bare,
          hashes.settled.map((h) => `/status?hash=${h}`),
        ),
        untracedLean[0] as GetTarget,
        offPending,
      ],
      b.settings.connections,
      b.ms,
      ROUND_MIN_MS,
    );
    b.report.details.tracing = { ...r, sideBySide: side, sink: sink.received() };
    for (const agg of [...Object.values(r), ...Object.values(side).flatMap((g) => [g.value, g.baseline])]) {
      const odd = unexpected(agg, [200]);
      if (odd) b.report.note(`unexpected answers — ${odd}`);
    }
    if (sink.received().exports === 0) b.report.note('tracing: the traced server exported nothing');
    const add = (name: string, agg: Aggregate, base: Aggregate, baselineName: string) =>
      b.report.add({ section: SECTION, name, value: agg.rps, unit: 'req/s', baseline: base.rps, baselineName });
    const addSideBySide = (name: string, group: string, baselineName: string) => {
      const g = side[group];
      if (!g) return;
      const spread = `rounds ${Math.min(...g.ratios).toFixed(2)}–${Math.max(...g.ratios).toFixed(2)}`;
      b.report.add({
        section: SECTION,
        name: `${name} (side by side, median of ${g.ratios.length} rounds' ratios; ${spread})`,
        value: g.value.rps,
        unit: 'req/s',
        baseline: g.baseline.rps,
        baselineName,
        ratio: g.ratio,
      });
    };
    const [rBare, rOff, rOffPending] = ['bare', 'off', 'off-pending'].map((label) => r[label] as Aggregate) as [
      Aggregate,
      Aggregate,
      Aggregate,
    ];
    add('status, settled: lean server, tracing off ÷ bare', rOff, rBare, 'bare');
    addSideBySide(
      'status, settled: lean server, tracing off, a second process ÷ the first (the noise)',
      'lean noise',
      'tracing off',
    );
    addSideBySide('status, settled: lean server, tracing on ÷ tracing off', 'lean 100%', 'tracing off');
    addSideBySide(
      `status, settled: lean server, tracing on, ${SAMPLED * 100}% of traces kept ÷ tracing off (${PER_SIDE} pairs)`,
      'lean 1%',
      'tracing off',
    );
    addSideBySide(
      'status, settled: lean server, tracing on, no trace ever kept ÷ tracing off',
      'lean never',
      'tracing off',
    );
    add('status, pending: lean server, tracing off ÷ bare', rOffPending, rBare, 'bare');
    addSideBySide('status, pending: lean server, tracing on ÷ tracing off', 'lean pending 100%', 'tracing off');
    addSideBySide(
      'status, settled: Next, tracing off, a second process ÷ the first (the noise)',
      'next noise',
      'Next, tracing off',
    );
    addSideBySide(
      `status, settled: Next, tracing on, ${SAMPLED * 100}% of traces kept ÷ tracing off (${PER_SIDE} pairs)`,
      'next 1%',
      'Next, tracing off',
    );
    addSideBySide(
      'status, settled: Next, tracing on, no trace ever kept ÷ tracing off',
      'next never',
      'Next, tracing off',
    );
    addSideBySide('status, settled: Next, tracing on ÷ tracing off', 'next 100%', 'Next, tracing off');
  } finally {
    await Promise.all(Object.values(next).map((s) => s.stop()));
    await Promise.all([...untraced, on, ...sampled, never, bare].map((s) => s.stop()));
    await sink.close();
  }
}
