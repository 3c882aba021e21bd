import { VisuallyHidden } from '@/app/_kit/a11y';
import { Button } from '@/app/_kit/Button';
import { formatAmountDown, formatEstimate, formatUsd } from '@/app/_kit/format';
import type { Route } from '../_lib/api';
import styles from './routes.module.css';

interface RouteListProps {
  routes: Route[];
  providerName: (key: string) => string;
  onChoose: (route: Route) => void;
  /** Route being locked right now, if any. */
  lockingRouteId: string | null;
  disabled: boolean;
}

/** THORChain offers the same pair two ways; say which is which. */
function modeLabel(route: Route): { label: string; hint: string } | null {
  if (route.provider !== 'THORCHAIN') return null;
  return /:streaming$/.test(route.routeId) || route.steps.some((step) => /streaming/i.test(step.name))
    ? { label: 'Streaming', hint: 'Split into small swaps over time: a better price, slower.' }
    : { label: 'Rapid', hint: 'One swap in the next block: faster, more price impact on large amounts.' };
}

const DOLLAR_STABLECOINS = new Set(['USDC', 'USDT', 'DAI', 'USDC.E']);

/** USD per unit of a fee's token, from what the route itself says its two sides are worth. */
function unitPriceUsd(route: Route, currency: string): number | null {
  if (DOLLAR_STABLECOINS.has(currency.toUpperCase())) return 1;
  const side = [route.src, route.dst].find((s) => s.currency === currency);
  const price = side ? Number(side.usd) / Number(side.amount) : Number.NaN;
  return Number.isFinite(price) && price > 0 ? price : null;
}

/**
 * The route's total fee in USD: the API's own total, else the sum of its items, each valued by the
 * API or at the route's own prices; `null` when an item has no price at all.
 */
function totalFeeUsd(route: Route): number | null {
  if (route.fee.usd != null) return Number(route.fee.usd);
  let total = 0;
  for (const item of route.feeBreakdown?.items ?? route.fee.details ?? []) {
    const price = item.amountUsd != null ? null : unitPriceUsd(route, item.currency);
    const usd = item.amountUsd ?? (price === null ? null : Number(item.amount) * price);
    if (usd === null || !Number.isFinite(usd)) return null;
    total += usd;
  }
  return total;
}

/** Each fee in its own token: `0.0012 ETH network · 0.5 USDC provider`. */
const feeTokens = (route: Route) =>
  (route.feeBreakdown?.items ?? route.fee.details ?? [])
    .filter((item) => Number(item.amount) > 0)
    .map((item) => `${formatAmountDown(item.amount, 4)} ${item.currency} ${item.label.toLowerCase()}`)
    .join(' · ');

/** Routes as the API ranks them (best first); each can be locked. */
export function RouteList({ routes, providerName, onChoose, lockingRouteId, disabled }: RouteListProps) {
  return (
    <ol className={styles.list} aria-label="Available routes, best first">
      {routes.map((route, index) => {
        const name = providerName(route.provider);
        const headingId = `route-${index}-name`;
        const usd = formatUsd(route.dst.usd, '');
        const locking = lockingRouteId === route.routeId;
        const mode = modeLabel(route);
        const tokens = feeTokens(route);
        const feeUsd = totalFeeUsd(route);
        return (
          <li
            key={`${route.provider}:${route.routeId}`}
            className={index === 0 ? `${styles.card} ${styles.best}` : styles.card}
            aria-labelledby={headingId}
            data-provider={route.provider}
          >
            <div className={styles.head}>
              <h3 id={headingId} className={styles.name}>
                {name}
              </h3>
              {index === 0 && <span className={styles.tag}>Best rate</span>}
              {mode && (
                <span className={styles.mode} title={mode.hint}>
                  {mode.label}
                </span>
              )}
            </div>
            <p className={styles.receive}>
              <VisuallyHidden>You receive </VisuallyHidden>
              <span className={styles.amount}>{route.dst.formatted}</span>
              {usd && <span className={styles.usd}>≈ {usd}</span>}
            </p>
            <dl className={styles.stats}>
              <div className={styles.stat}>
                <dt>Total fees</dt>
                <dd>
                  {feeUsd === null ? 'USD value unknown' : `≈ ${formatUsd(feeUsd)}`}
                  {tokens && <span className={styles.feeTokens}>{tokens}</span>}
                </dd>
              </div>
              <div className={styles.stat}>
                <dt>Time</dt>
                <dd>{formatEstimate(route.estimatedTime)}</dd>
              </div>
              {route.minimumReceived && (
                <div className={styles.stat}>
                  <dt>Min. received</dt>
                  <dd title={`${route.minimumReceived} ${route.dst.currency}`}>
                    {formatAmountDown(route.minimumReceived)} {route.dst.currency}
                  </dd>
                </div>
              )}
            </dl>
            {mode && <p className={styles.modeHint}>{mode.hint}</p>}
            <div className={styles.foot}>
              {route.steps.length > 0 ? (
                <ol className={styles.steps} aria-label={`Steps via ${name}`}>
                  {route.steps.map((step, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: steps have no id and never reorder
                    <li key={i} className={styles.step}>
                      <span>{step.type}</span> {step.name}
                    </li>
                  ))}
                </ol>
              ) : (
                <span />
              )}
              <Button
                variant="accent"
                size="small"
                onClick={() => onChoose(route)}
                disabled={disabled}
                busy={locking}
                aria-describedby={headingId}
              >
                {locking ? 'Locking…' : 'Lock this route'}
              </Button>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
