import { getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import { AppError } from '../errors';
import { feePrices } from '../fees/summary';
import { isProviderError, ProviderError } from '../providers/errors';
import type { ResilientAdapter } from '../providers/resilience';
import type { ProviderKey, ProviderRoute } from '../providers/types';
import { observedTime, routeTimes } from '../route-times/times';
import { withDeadline } from './deadline';
import { compareRoutes, type PublicRoute, presentRoute } from './present';
import { cachedRoutes, cacheRoutes, takeClientShares } from './quote-guard';
import type { SwapPair } from './validate';

export interface ProviderQuoteOutcome {
  provider: ProviderKey;
  ok: boolean;
  routes: ProviderRoute[];
  error?: ProviderError;
  latencyMs: number;
}

/**
 * Asks one provider for routes under its deadline, counted from `receivedAt` (the request's arrival)
 * so that the time spent before the fan-out does not push the answer past it; never throws. A 'preview' (quote fan-out) may
 * not spend the part of the provider's budget kept for locks, executes and status polls.
 */
export async function quoteProvider(
  ctx: AppContext,
  adapter: ResilientAdapter,
  pair: SwapPair,
  purpose: 'preview' | 'lock' = 'lock',
  receivedAt = performance.now(),
): Promise<ProviderQuoteOutcome> {
  const started = performance.now();
  const deadline = Math.max(0, ctx.config.providers[adapter.key].deadlineMs - (started - receivedAt));
  try {
    const routes = await withDeadline(
      deadline,
      (signal) =>
        (purpose === 'preview' ? adapter.previewQuote : adapter.quote)(
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
    if (error.kind === 'NO_ROUTE') {
      ctx.log.debug({ provider: adapter.key, reason: error.message }, 'provider has no route');
      return { provider: adapter.key, ok: true, routes: [], latencyMs: performance.now() - started };
    }
    ctx.log.warn({ provider: adapter.key, kind: error.kind, detail: error.message }, 'provider quote failed');
    return { provider: adapter.key, ok: false, routes: [], error, latencyMs: performance.now() - started };
  }
}

/** The route-times key of a provider's route for a pair. */
export const routeKeyOf = (provider: string, pair: SwapPair) => ({
  provider,
  srcChain: pair.src.chain,
  dstChain: pair.dst.chain,
  srcAssetId: pair.src.id,
  dstAssetId: pair.dst.id,
});

/**
 * Providers that may quote this pair: enabled, active in the catalog, not excluded, serving the
 * pair. One with an open breaker stays a candidate: it answers at once as unavailable, so the
 * others are still returned and a fan-out where every breaker is open is an honest 503.
 */
export function candidateProviders(ctx: AppContext, pair: SwapPair, activeSources: Set<string>): ResilientAdapter[] {
  return ctx.providers
    .list()
    .filter((a) => activeSources.has(a.key) && !pair.exclude.includes(a.key) && a.supports(pair.src, pair.dst));
}

/**
 * Fan-out to every candidate in parallel, each under its own deadline counted from the request's arrival.
 * No route anywhere is an empty list (a valid answer); every candidate failing is 503, as the failure is
 * ours to retry. An identical request answered a moment
 * ago is served from the shared cache; a client past its share of a provider's upstream budget
 * gets the other providers, or 429 when it is past its share of all of them.
 */
export async function quoteRoutes(
  ctx: AppContext,
  pair: SwapPair,
  activeSources: Set<string>,
  client: string,
  receivedAt = performance.now(),
): Promise<PublicRoute[]> {
  const candidates = candidateProviders(ctx, pair, activeSources);
  if (candidates.length === 0) return [];
  const cached = await cachedRoutes(ctx, pair);
  if (cached) return cached;
  const { allowed, heldBack, retryAfterSeconds } = await takeClientShares(ctx, candidates, client);
  const prices = feePrices(await getCatalog(ctx), [pair.src, pair.dst]);
  if (allowed.length === 0) {
    throw new AppError(
      'RATE_LIMITED',
      `Too many quotes from this client for the providers' shared budget; retry in ${retryAfterSeconds} s`,
      { headers: { 'retry-after': String(retryAfterSeconds) } },
    );
  }
  const times = await routeTimes(ctx);
  // Each provider's routes are presented as they arrive, so a deadline cut-off has only the merge left to do.
  const answers = await Promise.all(
    allowed.map(async (adapter) => {
      const outcome = await quoteProvider(ctx, adapter, pair, 'preview', receivedAt);
      const presented = outcome.routes.map((route) =>
        presentRoute(
          outcome.provider,
          route,
          pair.src,
          pair.dst,
          pair.amountBase,
          prices,
          observedTime(times, routeKeyOf(outcome.provider, pair), route.estimatedTimeSeconds),
        ),
      );
      return { outcome, presented };
    }),
  );
  const outcomes = answers.map((a) => a.outcome);
  await ctx.metrics?.recordQuotes(outcomes);
  if (outcomes.every((o) => !o.ok)) {
    throw new AppError('SERVICE_UNAVAILABLE', 'No provider could be reached for a quote; retry shortly');
  }
  const routes = answers.flatMap((a) => a.presented).sort(compareRoutes);
  if (heldBack === 0 && outcomes.every((o) => o.ok)) await cacheRoutes(ctx, pair, routes);
  return routes;
}
