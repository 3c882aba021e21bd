import { VisuallyHidden } from '@/app/_kit/a11y';
import { Button } from '@/app/_kit/Button';
import { FeeSummary } from '@/app/_kit/FeeSummary';
import { formatAmount, formatPercent, formatUsd } from '@/app/_kit/format';
import { Notice } from '@/app/_kit/Notice';
import type { Route } from '../_lib/api';
import { feeShare, LARGE_FEE_SHARE, modeLabel, usualTime } from './route-labels';
import styles from './routes.module.css';

interface RouteListProps {
  routes: Route[];
  providerName: (key: string) => string;
  onChoose: (route: Route) => void;
  /** Route being locked right now, if any. */
  lockingRouteId: string | null;
  disabled: boolean;
  /** How the list is ordered, for its label. */
  order?: string;
  /** The best rate (the API ranks it first), wherever the order puts it. */
  best?: Route;
}

const keyOf = (route: Route) => `${route.provider}:${route.routeId}`;

/** Routes in the order given; the API's first (the most received) is the best rate. Each can be locked. */
export function RouteList({
  routes,
  providerName,
  onChoose,
  lockingRouteId,
  disabled,
  order = 'best first',
  best = routes[0],
}: RouteListProps) {
  return (
    <ol className={styles.list} aria-label={`Available routes, ${order}`}>
      {routes.map((route, index) => {
        const isBest = best !== undefined && keyOf(best) === keyOf(route);
        const time = usualTime(route);
        const name = providerName(route.provider);
        const headingId = `route-${index}-name`;
        const usd = formatUsd(route.dst.usd, '');
        const locking = lockingRouteId === route.routeId;
        const mode = modeLabel(route);
        const share = feeShare(route);
        return (
          <li
            key={keyOf(route)}
            className={isBest ? `${styles.card} ${styles.best}` : styles.card}
            aria-labelledby={headingId}
            data-provider={route.provider}
          >
            <div className={styles.head}>
              <h3 id={headingId} className={styles.name}>
                {name}
              </h3>
              {isBest && <span className={styles.tag}>Best rate</span>}
              {mode && (
                <span className={styles.mode} title={mode.hint}>
                  {mode.label}
                </span>
              )}
            </div>
            <p className={styles.receive}>
              <VisuallyHidden>You receive </VisuallyHidden>
              <span className={styles.amount}>{formatAmount(route.dst.amount, route.dst.currency)}</span>
              {usd && <span className={styles.usd}>≈ {usd}</span>}
            </p>
            <dl className={styles.stats}>
              <div className={styles.stat}>
                <dt>Total fees</dt>
                <dd>
                  <FeeSummary usd={route.fee.usd} details={route.feeBreakdown?.items ?? route.fee.details} />
                </dd>
              </div>
              <div className={styles.stat}>
                <dt>Time</dt>
                <dd title={time?.hint}>{time?.text ?? '—'}</dd>
              </div>
              {route.minimumReceived && (
                <div className={styles.stat}>
                  <dt>Min. received</dt>
                  <dd title={`${route.minimumReceived} ${route.dst.currency}`}>
                    {formatAmount(route.minimumReceived, route.dst.currency)}
                  </dd>
                </div>
              )}
            </dl>
            {mode && <p className={styles.modeHint}>{mode.hint}</p>}
            {share !== null && share >= LARGE_FEE_SHARE && (
              <Notice tone="warning" title="High fee.">
                The fees are {formatPercent(share)} of what you send. Check the amount, or try a smaller one or another
                route.
              </Notice>
            )}
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
