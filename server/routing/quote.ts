import type { AppContext } from '../context';
import { AppError } from '../errors';
import { isProviderError, ProviderError } from '../providers/errors';
import type { ProviderAdapter, ProviderKey, ProviderRoute } from '../providers/types';
import { withDeadline } from './deadline';
import { compareRoutes, type PublicRoute, presentRoute } from './present';
import type { SwapPair } from './validate';

export interface ProviderQuoteOutcome {
  provider: ProviderKey;
  ok: boolean;
  routes: ProviderRoute[];
  error?: ProviderError;
  latencyMs: number;
}

/** Asks one provider for routes under its deadline; never throws. */
export async function quoteProvider(
  ctx: AppContext,
  adapter: ProviderAdapter,
  pair: SwapPair,
): Promise<ProviderQuoteOutcome> {
  const started = performance.now();
  const deadline = ctx.config.providers[adapter.key].deadlineMs;
  try {
    const routes = await withDeadline(
      deadline,
      (signal) =>
        adapter.quote(
          {
            src: pair.src,
            dst: pair.dst,
            amountBase: pair.amountBase,
            slippageBps: pair.slippageBps,
            depositor: pair.depositor,
            recipient: pair.recipient,
          },
          signal,
        ),
      () => new ProviderError(adapter.key, 'UNAVAILABLE', `no answer within ${deadline} ms`),
    );
    return { provider: adapter.key, ok: true, routes, latencyMs: performance.now() - started };
  } catch (caught) {
    const error = isProviderError(caught) ? caught : new ProviderError(adapter.key, 'BAD_RESPONSE', 'adapter failed');
    if (error.kind === 'NO_ROUTE')
      return { provider: adapter.key, ok: true, routes: [], latencyMs: performance.now() - started };
    ctx.log.warn({ provider: adapter.key, kind: error.kind, detail: error.message }, 'provider quote failed');
    return { provider: adapter.key, ok: false, routes: [], error, latencyMs: performance.now() - started };
  }
}

/**
 * Providers that may quote this pair: enabled, active in the catalog, not excluded, serving the
 * pair. One with an open breaker stays a candidate: it answers at once as unavailable, so the
 * others are still returned and a fan-out where every breaker is open is an honest 503.
 */
export function candidateProviders(ctx: AppContext, pair: SwapPair, activeSources: Set<string>): ProviderAdapter[] {
  return ctx.providers
    .list()
    .filter((a) => activeSources.has(a.key) && !pair.exclude.includes(a.key) && a.supports(pair.src, pair.dst));
}

/**
 * Fan-out to every candidate in parallel, each under its own deadline. No route anywhere is an empty
 * list; every candidate failing is 503 (architecture §4).
 */
export async function quoteRoutes(ctx: AppContext, pair: SwapPair, activeSources: Set<string>): Promise<PublicRoute[]> {
  const candidates = candidateProviders(ctx, pair, activeSources);
  if (candidates.length === 0) return [];
  const outcomes = await Promise.all(candidates.map((adapter) => quoteProvider(ctx, adapter, pair)));
  await ctx.metrics?.recordQuotes(outcomes);
  if (outcomes.every((o) => !o.ok)) {
    throw new AppError('SERVICE_UNAVAILABLE', 'No provider could be reached for a quote; retry shortly');
  }
  return outcomes
    .flatMap((o) => o.routes.map((route) => presentRoute(o.provider, route, pair.src, pair.dst, pair.amountBase)))
    .sort(compareRoutes);
}
