/**
 * 2. Quote fan-out: simulators at fixed latencies (100/200/300 ms) and one that hangs, provider
 * deadline 1000 ms. Compared with the slowest healthy provider's own latency as the app measured
 * it in the same run (provider_calls), and with the deadline. Run twice: with the circuit breaker
 * as configured (the hanging provider is cut off after a few timeouts) and with the breaker
 * disabled (every quote waits the hanging provider out to its deadline).
 */
import { type ProviderKey, parseConfig } from '../server/config';
import { foldRouteTimeDeltas } from '../server/rollups/route-times';
import { observedTime, type RouteKey, readRouteTimes } from '../server/route-times/times';
import { ETH_TO_BTC } from '../test/support/fixtures';
import { aggregate, httpRequest, unexpected } from './load';
import type { ApiServers, Bench } from './setup';

const SECTION = 'quote';
const DEADLINE_MS = 1000;
const HEALTHY: Partial<Record<ProviderKey, number>> = { THORCHAIN: 100, CHAINFLIP: 200, LIFI: 300 };
const SLOWEST: ProviderKey = 'LIFI';
const HANGING: ProviderKey = 'RELAY';

function configureSimulators(b: Bench) {
  for (const [key, slowMs] of Object.entries(HEALTHY)) {
    b.sims[key as ProviderKey].configure({ faults: { quote: 'slow' }, slowMs });
  }
  b.sims[HANGING].configure({ faults: { quote: 'hang' } });
}

async function providerLatency(b: Bench, provider: ProviderKey, outcome: string, since: Date) {
  const [row] = await b.sql<{ p50: number | null; p99: number | null; n: number }[]>`
    select percentile_cont(0.5) within group (order by latency_ms) as p50,
           percentile_cont(0.99) within group (order by latency_ms) as p99, count(*)::int as n
    from provider_calls
    where provider = ${provider} and stage = 'quote' and outcome = ${outcome} and created_at >= ${since}`;
  return { p50: row?.p50 ?? 0, p99: row?.p99 ?? 0, n: row?.n ?? 0 };
}

async function checkQuote(api: ApiServers) {
  const res = await fetch(`http://127.0.0.1:${api.port}/api/v1/quote`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ETH_TO_BTC),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { data?: { provider?: string }[] };
  if (res.status !== 200) throw new Error(`quote answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return [...new Set((body.data ?? []).map((r) => r.provider ?? '?'))].sort();
}

/** How long a scenario's fresh API process is loaded before and while it is measured. */
interface Timing {
  warmupSeconds: number;
  seconds: number;
}
const SHORT: Timing = { warmupSeconds: 3, seconds: 8 };
/**
 * Without the breaker every quote waits out the deadline, so a round holds only ~8 quotes a second:
 * 30 s make its p99 a percentile (~240 quotes), not the single slowest quote. The warm-up outlasts
 * the start-up heap's shrinking: ~24 s after start V8's memory reducer compacts what module loading
 * left (`--trace-gc`: "Mark-Compact (reduce)" 89 → 41 MB, a 26 ms pause), once per process.
 */
const LONG: Timing = { warmupSeconds: 35, seconds: 30 };

async function scenario(b: Bench, label: string, overrides: Record<string, string>, timing: Timing) {
  const since = new Date();
  const api = await b.startApi({ PROVIDER_DEADLINE_MS: String(DEADLINE_MS), ...overrides });
  let result: Awaited<ReturnType<Bench['load']['run']>>;
  let providers: string[];
  let cpuMsPerQuote = 0;
  try {
    providers = await checkQuote(api);
    const warmupMs = b.ms(timing.warmupSeconds, 2 * DEADLINE_MS + 1000);
    // The server's CPU over the measured part only: read when the warm-up ends and when the load does.
    let cpuAtStart: Promise<number> | undefined;
    const startTimer = setTimeout(() => {
      cpuAtStart = serverCpuMs(api);
    }, warmupMs);
    result = await b.load.run({
      label,
      port: api.port,
      requests: [httpRequest('POST', api.port, '/api/v1/quote', ETH_TO_BTC)],
      connections: 8,
      // Long enough for two deadlines to pass, so the breaker has opened and nothing started before it is counted.
      warmupMs,
      durationMs: b.ms(timing.seconds, 2000),
      maxRequests: 1_000_000,
    });
    clearTimeout(startTimer);
    if (cpuAtStart && result.requests)
      cpuMsPerQuote = ((await serverCpuMs(api)) - (await cpuAtStart)) / result.requests;
  } finally {
    await api.child.stop(); // flushes provider_calls
  }
  const slowest = await providerLatency(b, SLOWEST, 'ok', since);
  const hanging = await providerLatency(b, HANGING, 'unavailable', since);
  const outcomes = await b.sql<{ provider: string; outcome: string; n: number; p50: number; max: number }[]>`
    select provider, outcome, count(*)::int as n, percentile_cont(0.5) within group (order by latency_ms) as p50,
      max(latency_ms) as max
    from provider_calls where stage = 'quote' and created_at >= ${since} group by provider, outcome order by 1, 2`;
  console.log(
    `    ${label}: ${Math.round(result.rps)} quotes/s, p50 ${result.latency.p50Ms} ms, p99 ${result.latency.p99Ms} ms; ` +
      `routes from ${providers.join(', ')}; ${SLOWEST} p50 ${slowest.p50} ms`,
  );
  const odd = unexpected(aggregate(label, [result]), [200]);
  if (odd) b.report.note(`unexpected answers — ${odd}`);
  return { result, slowest, hanging, outcomes, providers, cpuMsPerQuote };
}

let cpuRequests = 0;
/** The API process's CPU time so far (user + system), in ms. */
async function serverCpuMs(api: ApiServers): Promise<number> {
  const id = 1_000_000 + cpuRequests++;
  const usage = await api.child.request<{ user: number; system: number }>({ type: 'cpu', id }, id, 10_000);
  return (usage.user + usage.system) / 1000;
}

const LOOKUP_PROVIDERS = ['THORCHAIN', 'CHAINFLIP', 'RELAY', 'LIFI'];
const LOOKUP_ROUTES_PER_PROVIDER = 200;

/**
 * What the route-time lookups add to a quote (#48), in process, as a quote makes them: the window's daily
 * rows of busy routes (4 providers × 200 chain and asset pairs × 30 days, each above the minimum sample)
 * read into memory as the quote path holds them, then one lookup per provider, percentiles included, timed
 * over many quotes. The quote's own p50 in the same run is the baseline.
 */
async function routeTimeLookupMicros(b: Bench): Promise<{ micros: number; routes: number }> {
  const ctx = { sql: b.sql, config: parseConfig(b.env) };
  const marker = 'lookup-bench-';
  await b.sql`
    insert into route_time_deltas (day, provider, src_chain, dst_chain, src_asset_id, dst_asset_id,
      execute_seconds, deposit_seconds)
    select date_trunc('day', now() - d * interval '1 day', 'UTC'), p, ${marker} || (r % 20), ${marker} || (r / 20),
           r, r + 1000, 20 + (r * 7 + d * 13 + i * 31) % 900, 5 + (r + d + i) % 300
    from unnest(${LOOKUP_PROVIDERS}::text[]) as p, generate_series(0, 29) as d,
         generate_series(0, ${LOOKUP_ROUTES_PER_PROVIDER - 1}) as r, generate_series(1, 4) as i`;
  try {
    while ((await foldRouteTimeDeltas(ctx)).folded > 0);
    const times = await readRouteTimes(ctx);
    const quoteKeys = (n: number): RouteKey[] =>
      LOOKUP_PROVIDERS.map((provider) => {
        const r = n % LOOKUP_ROUTES_PER_PROVIDER;
        return {
          provider,
          srcChain: `${marker}${r % 20}`,
          dstChain: `${marker}${Math.floor(r / 20)}`,
          srcAssetId: r,
          dstAssetId: r + 1000,
        };
      });
    let observed = 0;
    const quotes = b.count(50_000, 5_000);
    for (let n = 0; n < 1000; n++) for (const key of quoteKeys(n)) if (observedTime(times, key, 30)) observed++;
    const started = performance.now();
    for (let n = 0; n < quotes; n++) for (const key of quoteKeys(n)) if (observedTime(times, key, 30)) observed++;
    const micros = ((performance.now() - started) * 1000) / quotes;
    if (observed === 0) throw new Error('quote: the route-time lookups found no route');
    return { micros, routes: times.pairs.size };
  } finally {
    await b.sql`delete from route_time_daily where src_chain like ${`${marker}%`}`;
  }
}

export async function quoteSection(b: Bench): Promise<void> {
  configureSimulators(b);
  const withBreaker = await scenario(b, 'quote (breaker as configured)', {}, SHORT);
  const noBreaker = await scenario(b, 'quote (breaker disabled)', { PROVIDER_BREAKER_THRESHOLD: '1000000000' }, LONG);
  b.report.details.quote = {
    withBreaker,
    noBreaker,
    healthyLatencies: HEALTHY,
    hanging: HANGING,
    deadlineMs: DEADLINE_MS,
  };

  const rows = (name: string, s: typeof withBreaker) => {
    const { p50Ms, p99Ms } = s.result.latency;
    const slowest = s.slowest.p50;
    const base = { section: SECTION, unit: 'ms', baseline: slowest, baselineName: `${SLOWEST} p50, same run` };
    b.report.add({ ...base, name: `${name}: quote p50`, value: p50Ms });
    b.report.add({ ...base, name: `${name}: p50 − slowest healthy`, value: p50Ms - slowest, ratio: p50Ms / slowest });
    b.report.add({ ...base, name: `${name}: p99 − slowest healthy`, value: p99Ms - slowest, ratio: p99Ms / slowest });
    b.report.add({
      section: SECTION,
      name: `${name}: p99 − deadline`,
      value: p99Ms - DEADLINE_MS,
      unit: 'ms',
      baseline: DEADLINE_MS,
      baselineName: 'provider deadline',
      ratio: p99Ms / DEADLINE_MS,
    });
  };
  rows('breaker on', withBreaker);
  rows('breaker off', noBreaker);
  for (const [name, s] of [
    ['breaker on', withBreaker],
    ['breaker off', noBreaker],
  ] as const) {
    b.report.add({
      section: SECTION,
      name: `${name}: API process CPU per quote`,
      value: Math.round(s.cpuMsPerQuote * 100) / 100,
      unit: 'ms',
    });
  }
  const lookups = await routeTimeLookupMicros(b);
  console.log(`    route-time lookups: ${lookups.micros.toFixed(2)} µs per quote (${lookups.routes} pairs held)`);
  b.report.add({
    section: SECTION,
    name: `route-time lookups per quote (4 routes; ${lookups.routes} pairs held)`,
    value: Math.round(lookups.micros * 100) / 100,
    unit: 'µs',
    baseline: withBreaker.result.latency.p50Ms * 1000,
    baselineName: 'quote p50 (breaker on), same run',
    ratio: lookups.micros / (withBreaker.result.latency.p50Ms * 1000),
  });
  b.report.add({
    section: SECTION,
    name: 'breaker off: hanging provider dropped after',
    value: noBreaker.hanging.p50,
    unit: 'ms',
    baseline: DEADLINE_MS,
    baselineName: 'provider deadline',
  });
}
