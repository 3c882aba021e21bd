/**
 * Tracing's cost on the status path. Off (no OTEL_EXPORTER_OTLP_ENDPOINT, as by default) the product
 * loads no OpenTelemetry code at all, so the lean server's status ratio to the bare server must be
 * what the http section reads; on, every request is a server span (and a pending swap's read a SQL
 * span) exported to an OTLP/HTTP sink on loopback, or with 1% of new traces kept. Interleaved rounds:
 * bare, lean off, lean on, for settled swaps (answered from memory) and pending ones (read each time);
 * then Next off, traced with 1% kept, with none kept and traced in full, on settled swaps, unless BENCH_SKIP_NEXT.
 * A second untraced lean process ÷ the first says how far two identical servers read apart in this run:
 * on this 2-core VM that spread (up to ±11 %) is larger than what 1% tracing costs, so the 1% rows pool
 * two processes on each side (the median of both processes' rounds). The section's own servers take small
 * database pools: a dozen processes would otherwise take more connections than Postgres' 100.
 */
import { createServer, type Server } from 'node:http';
import { listen } from '../server/lifecycle';
import { childEnv } from './config';
import { insertSyntheticTransactions } from './fixtures';
import { type Aggregate, aggregate, unexpected, warmedGetRounds } from './load';
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

/** Next untraced (twice), traced with `SAMPLED` of new traces kept (twice), with none kept, and in full: one build, six processes. */
async function startNextServers(b: Bench, endpoint: string): Promise<Record<string, NextHandle>> {
  const servers: Record<string, NextHandle> = {};
  if (b.settings.skipNext) {
    b.report.note('tracing: Next not measured (BENCH_SKIP_NEXT=1)');
    return servers;
  }
  const untraced = { ...b.env, ...POOL };
  const traced = { ...untraced, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint };
  try {
    servers['next-off'] = await startNext(childEnv(untraced), { lockWaitSeconds: b.settings.nextLockWaitSeconds });
    const sampled = { ...traced, OTEL_TRACES_SAMPLER_ARG: String(SAMPLED) };
    for (const [label, env] of [
      ['next-off-2', untraced],
      ['next-sampled', sampled],
      ['next-sampled-2', sampled],
      ['next-never', { ...traced, OTEL_TRACES_SAMPLER_ARG: '0' }],
      ['next-on', traced],
    ] as const) {
      servers[label] = await startNext(childEnv(env), { besideRunning: true });
    }
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
  const off = await b.api();
  const offTwin = await b.startApi(POOL);
  const traced = { ...b.env, ...POOL, OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint };
  const sampledEnv = { ...traced, OTEL_TRACES_SAMPLER_ARG: String(SAMPLED) };
  const serve = (name: string, mode: 'lean' | 'bare', env: Record<string, string>) =>
    startChild(name, new URL('./serve.ts', import.meta.url).pathname, [mode], { env: childEnv(env) });
  const on = await serve('api-traced', 'lean', traced);
  const sampled = await serve('api-sampled', 'lean', sampledEnv);
  const sampledTwin = await serve('api-sampled-2', 'lean', sampledEnv);
  const never = await serve('api-never', 'lean', { ...traced, OTEL_TRACES_SAMPLER_ARG: '0' });
  const bare = await serve('bare', 'bare', b.env);
  const next = await startNextServers(b, sink.endpoint);
  try {
    const statusPaths = (of: string[]) => of.map((h) => `/api/v1/transaction/status?hash=${h}`);
    const settled = (label: string, port: number, pid: number | undefined) => ({
      label,
      port,
      pid,
      paths: statusPaths(hashes.settled),
    });
    const child = (label: string, handle: { info: Record<string, unknown>; pid?: number }) =>
      settled(label, handle.info.port as number, handle.pid);
    const targets = [
      { ...child('bare', bare), paths: hashes.settled.map((h) => `/status?hash=${h}`) },
      settled('off', off.port, off.child.pid),
      settled('off-twin', offTwin.port, offTwin.child.pid),
      child('on', on),
      child('on-sampled', sampled),
      child('on-sampled-2', sampledTwin),
      child('on-never', never),
      { label: 'off-pending', port: off.port, paths: statusPaths(hashes.pending) },
      { label: 'on-pending', port: on.info.port as number, paths: statusPaths(hashes.pending) },
      ...Object.entries(next).map(([label, { port, pid }]) => settled(label, port, pid)),
    ];
    const r = await warmedGetRounds(b.load, targets, b.settings.connections, b.ms, ROUND_MIN_MS);
    b.report.details.tracing = { ...r, sink: sink.received() };
    for (const agg of Object.values(r)) {
      const odd = unexpected(agg, [200]);
      if (odd) b.report.note(`unexpected answers — ${odd}`);
    }
    if (sink.received().exports === 0) b.report.note('tracing: the traced server exported nothing');
    const add = (name: string, agg: Aggregate, base: Aggregate, baselineName: string) =>
      b.report.add({ section: SECTION, name, value: agg.rps, unit: 'req/s', baseline: base.rps, baselineName });
    const [rBare, rOff, rOn, rOffPending, rOnPending] = ['bare', 'off', 'on', 'off-pending', 'on-pending'].map(
      (label) => r[label] as Aggregate,
    ) as [Aggregate, Aggregate, Aggregate, Aggregate, Aggregate];
    const pooled = (a: string, b: string) =>
      aggregate(`${a} + ${b}`, [...(r[a]?.rounds ?? []), ...(r[b]?.rounds ?? [])]);
    add('status, settled: lean server, tracing off ÷ bare', rOff, rBare, 'bare');
    add(
      'status, settled: lean server, tracing off, a second process ÷ the first (the noise)',
      r['off-twin'] as Aggregate,
      rOff,
      'tracing off',
    );
    add('status, settled: lean server, tracing on ÷ tracing off', rOn, rOff, 'tracing off');
    add(
      `status, settled: lean server, tracing on, ${SAMPLED * 100}% of traces kept ÷ tracing off (two processes each)`,
      pooled('on-sampled', 'on-sampled-2'),
      pooled('off', 'off-twin'),
      'tracing off',
    );
    add(
      'status, settled: lean server, tracing on, no trace ever kept ÷ tracing off',
      r['on-never'] as Aggregate,
      rOff,
      'tracing off',
    );
    add('status, pending: lean server, tracing off ÷ bare', rOffPending, rBare, 'bare');
    add('status, pending: lean server, tracing on ÷ tracing off', rOnPending, rOffPending, 'tracing off');
    const [nextOff, nextOffTwin, nextSampled, nextSampledTwin, nextNever, nextOn] = [
      'next-off',
      'next-off-2',
      'next-sampled',
      'next-sampled-2',
      'next-never',
      'next-on',
    ].map((label) => r[label]);
    if (nextOff && nextOffTwin && nextSampled && nextSampledTwin && nextNever && nextOn) {
      add(
        'status, settled: Next, tracing off, a second process ÷ the first (the noise)',
        nextOffTwin,
        nextOff,
        'Next, tracing off',
      );
      add(
        `status, settled: Next, tracing on, ${SAMPLED * 100}% of traces kept ÷ tracing off (two processes each)`,
        pooled('next-sampled', 'next-sampled-2'),
        pooled('next-off', 'next-off-2'),
        'Next, tracing off',
      );
      add(
        'status, settled: Next, tracing on, no trace ever kept ÷ tracing off',
        nextNever,
        nextOff,
        'Next, tracing off',
      );
      add('status, settled: Next, tracing on ÷ tracing off', nextOn, nextOff, 'Next, tracing off');
    }
  } finally {
    await Promise.all(Object.values(next).map((s) => s.stop()));
    await offTwin.child.stop();
    await on.stop();
    await sampled.stop();
    await sampledTwin.stop();
    await never.stop();
    await bare.stop();
    await sink.close();
  }
}
