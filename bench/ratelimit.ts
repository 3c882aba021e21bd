/**
 * 5. Rate limiter: lean-server throughput on a catalog route with the Redis limiter on ÷ the same
 * process and context with the limiter removed. Limits are set far above what the run can reach,
 * so every request is allowed and pays exactly one limiter round trip.
 */
import { type Aggregate, httpRequest, interleaved, pairedRatio, unexpected } from './load';
import type { Bench } from './setup';

const SECTION = 'ratelimit';
const ROUTE = '/api/v1/swap/chains';

export async function rateLimitSection(b: Bench): Promise<void> {
  const api = await b.api();
  const spec = (label: string, port: number, durationMs: number, warmupMs: number) => ({
    label,
    port,
    requests: [httpRequest('GET', port, ROUTE)],
    connections: b.settings.connections,
    durationMs,
    warmupMs,
    maxRequests: 5_000_000,
  });
  const on = (d: number, w: number) => spec('limiter on', api.port, d, w);
  const off = (d: number, w: number) => spec('limiter off', api.noLimitPort, d, w);
  await interleaved(b.load, [on(b.ms(1), 0), off(b.ms(1), 0)], 1, () => {});
  // 11 rounds: with 7, two same-code servers (an A/A run) read anywhere from 0.94 to 1.02.
  const r = await interleaved(b.load, [on(b.ms(2), b.ms(0.5, 250)), off(b.ms(2), b.ms(0.5, 250))], 11);
  b.report.details.ratelimit = r;
  const limited = r['limiter on'] as Aggregate;
  const free = r['limiter off'] as Aggregate;
  for (const agg of [limited, free]) {
    const odd = unexpected(agg, [200]);
    if (odd) b.report.note(`unexpected answers — ${odd}`);
  }
  const base = { section: SECTION, baselineName: 'limiter off' };
  b.report.add({
    ...base,
    name: `${ROUTE} limiter on`,
    value: limited.rps,
    unit: 'req/s',
    baseline: free.rps,
    // Each round's on ÷ the same round's off, moments apart: the machine's drift over the run moves both alike.
    ratio: pairedRatio(limited, free),
    gate: { key: 'limiter', target: 0.95 },
  });
  b.report.add({ ...base, name: `${ROUTE} limiter on p50`, value: limited.p50Ms, unit: 'ms', baseline: free.p50Ms });
  b.report.add({ ...base, name: `${ROUTE} limiter on p99`, value: limited.p99Ms, unit: 'ms', baseline: free.p99Ms });
}
