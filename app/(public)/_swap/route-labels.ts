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
