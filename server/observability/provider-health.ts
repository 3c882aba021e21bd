import { PROVIDER_KEYS } from '../config';
import type { AppContext } from '../context';

/** Quote latency percentiles and error rate per provider over the last hour; "no route" is an answer, not an error. */
export async function providerHealth(ctx: AppContext) {
  const rows = await ctx.sql<
    {
      provider: string;
      quoteCalls: number;
      quoteErrors: number;
      p50: number | null;
      p95: number | null;
      otherFailures: number;
    }[]
  >`
    select provider,
           count(*) filter (where stage = 'quote')::int as "quoteCalls",
           count(*) filter (where stage = 'quote' and outcome not in ('ok', 'no_route'))::int as "quoteErrors",
           percentile_cont(0.5) within group (order by latency_ms)
             filter (where stage = 'quote' and latency_ms is not null) as p50,
           percentile_cont(0.95) within group (order by latency_ms)
             filter (where stage = 'quote' and latency_ms is not null) as p95,
           count(*) filter (where stage <> 'quote' and outcome <> 'ok')::int as "otherFailures"
    from provider_calls
    where created_at >= now() - interval '1 hour'
    group by provider`;
  const keys = [...new Set([...PROVIDER_KEYS, ...rows.map((r) => r.provider)])];
  return keys.map((key) => {
    const row = rows.find((r) => r.provider === key);
    const quoteCalls = row?.quoteCalls ?? 0;
    return {
      provider: key,
      enabled: ctx.providers.get(key) !== undefined,
      quoteCalls,
      quoteErrors: row?.quoteErrors ?? 0,
      errorRate: quoteCalls > 0 ? (row?.quoteErrors ?? 0) / quoteCalls : null,
      latencyP50Ms: row?.p50 == null ? null : Math.round(row.p50),
      latencyP95Ms: row?.p95 == null ? null : Math.round(row.p95),
      otherFailures: row?.otherFailures ?? 0,
      /** This web process's breaker; null for a provider that is not enabled. */
      breaker: ctx.providers.get(key)?.breakerState() ?? null,
    };
  });
}
export type ProviderHealth = Awaited<ReturnType<typeof providerHealth>>[number];
