import { formatTimeSpan, formatUsualDuration } from '@/app/_kit/format';
import type { Route } from '../_lib/api';

/** Providers that offer the same pair two ways; say which is which, so two cards never read alike. */
export function modeLabel(
  route: Pick<Route, 'provider' | 'routeId' | 'steps'>,
): { label: string; hint: string } | null {
  if (route.provider === 'THORCHAIN') {
    return /:streaming$/.test(route.routeId) || route.steps.some((step) => /streaming/i.test(step.name))
      ? { label: 'Streaming', hint: 'Split into small swaps over time: a better price, slower.' }
      : { label: 'Rapid', hint: 'One swap in the next block: faster, more price impact on large amounts.' };
  }
  if (route.provider === 'CHAINFLIP') {
    return /:dca$/.test(route.routeId)
      ? { label: 'DCA', hint: 'Split into chunks over a few minutes: less price impact on large amounts, slower.' }
      : { label: 'Regular', hint: 'One swap at the next opportunity: faster, more price impact on large amounts.' };
  }
  return null;
}

/** A fee this large a share of what is sent gets a plain warning, whatever the route's rank. */
export const LARGE_FEE_SHARE = 0.05;

/** The fee's share of the amount sent, when both have a USD value; null when either is unknown. */
export function feeShare(route: Pick<Route, 'src' | 'fee'>): number | null {
  const sent = Number(route.src.usd);
  const fee = Number(route.fee.usd);
  if (!route.src.usd || !Number.isFinite(sent) || sent <= 0 || route.fee.usd == null || !Number.isFinite(fee)) {
    return null;
  }
  return fee / sent;
}

/** What a route card says of its time: our swaps' p50–p90, the provider's estimate, or nothing known. */
export function usualTime(route: Pick<Route, 'observedTime' | 'estimatedTime'>): { text: string; hint: string } | null {
  const observed = route.observedTime;
  if (observed?.source === 'observed') {
    return {
      text: `usually ${formatTimeSpan(observed.p50Seconds, observed.p90Seconds)}`,
      hint: `Half of our last ${observed.samples} swaps on this route took ${formatUsualDuration(observed.p50Seconds)} or less; nine in ten, ${formatUsualDuration(observed.p90Seconds)} or less.`,
    };
  }
  const seconds = observed?.p50Seconds ?? route.estimatedTime;
  if (!(seconds > 0)) return null;
  return {
    text: `about ${formatUsualDuration(seconds)}`,
    hint: "The provider's estimate: too few of our own swaps on this route to say.",
  };
}

export type RouteSort = 'amount' | 'speed';

/** The seconds a route is ranked by for speed: our p50, else the provider's estimate; unknown last. */
const speedOf = (route: Pick<Route, 'observedTime' | 'estimatedTime'>) => {
  const seconds = route.observedTime?.p50Seconds ?? route.estimatedTime;
  return seconds > 0 ? seconds : Number.POSITIVE_INFINITY;
};

/** Routes by amount received (the API's order, best first) or by speed, the better amount first among equals. */
export function sortRoutes<R extends Pick<Route, 'observedTime' | 'estimatedTime'>>(routes: R[], by: RouteSort): R[] {
  if (by === 'amount') return routes;
  return routes
    .map((route, rank) => ({ route, rank }))
    .sort((a, b) => speedOf(a.route) - speedOf(b.route) || a.rank - b.rank)
    .map(({ route }) => route);
}
