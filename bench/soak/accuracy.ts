/**
 * Route-time accuracy for the soak's own swaps (its database holds no others): per provider, the share
 * that finished within the p90 shown when they were quoted and the median p50 error, read by the same
 * function the Operations page's Route times panel reads, once what the worker has not rolled up yet is folded.
 */
import type { AppContext } from '../../server/context';
import { foldRouteTimeDeltas } from '../../server/rollups/route-times';
import { type ProviderAccuracy, routeTimeAccuracy } from '../../server/route-times/accuracy';
import { round } from './recorder';

/** The issue's goal: 90 % of swaps finish within the p90 shown. */
export const PROMISE_KEPT_GOAL = 0.9;

export type SoakAccuracy = ReturnType<typeof accuracyReport>;

export async function readAccuracy(ctx: Pick<AppContext, 'sql' | 'config'>, now = new Date()): Promise<SoakAccuracy> {
  await foldRouteTimeDeltas(ctx);
  return accuracyReport(await routeTimeAccuracy(ctx, now));
}

/** The providers' figures as the panel shows them, and over all of them the share of promises kept. */
export function accuracyReport(providers: ProviderAccuracy[]) {
  const promised = providers.reduce((n, p) => n + p.promised, 0);
  const kept = providers.reduce((n, p) => n + Math.round((p.keptShare ?? 0) * p.promised), 0);
  const keptShare = promised ? kept / promised : null;
  const estimates = providers.reduce((n, p) => n + p.estimates, 0);
  const estimatesKept = providers.reduce((n, p) => n + Math.round((p.estimatesKeptShare ?? 0) * p.estimates), 0);
  return {
    goal: PROMISE_KEPT_GOAL,
    settled: providers.reduce((n, p) => n + p.swaps, 0),
    promised,
    kept,
    keptShare,
    goalMet: keptShare === null ? null : keptShare >= PROMISE_KEPT_GOAL,
    /** Swaps shown the provider's estimate instead (too few of our own yet), and the share that finished within it. */
    estimates,
    estimatesKeptShare: estimates ? estimatesKept / estimates : null,
    byProvider: providers,
  };
}

const percent = (share: number | null) => (share === null ? '—' : `${round(share * 100)} %`);

/** The summary's line: the share kept overall against the goal, each provider's share and median p50 error, then the estimates'. */
export function accuracyLine(accuracy: SoakAccuracy): string {
  const providers = accuracy.byProvider.map(
    (p) =>
      `${p.provider} ${percent(p.keptShare)} of ${p.promised}, p50 off by ${p.medianP50ErrorSeconds === null ? '—' : `${p.medianP50ErrorSeconds} s`}`,
  );
  const verdict =
    accuracy.goalMet === null ? 'no swap was shown our p90' : accuracy.goalMet ? 'goal met' : 'BELOW the goal';
  const estimates = accuracy.estimates
    ? `; ${percent(accuracy.estimatesKeptShare)} of ${accuracy.estimates} shown the provider's estimate finished within it`
    : '';
  return `route times: ${percent(accuracy.keptShare)} of ${accuracy.promised} swaps shown our p90 finished within it (goal ${percent(accuracy.goal)}; ${verdict})${providers.length ? `; ${providers.join(', ')}` : ''}${estimates}`;
}
