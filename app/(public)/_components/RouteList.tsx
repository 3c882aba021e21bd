import type { Route } from '../_lib/api';
import { formatDuration, formatUsd } from '../_lib/format';
import styles from './ui.module.css';

interface RouteListProps {
  routes: Route[];
  providerName: (key: string) => string;
  onChoose: (route: Route) => void;
  /** Route being locked right now, if any. */
  lockingRouteId: string | null;
  disabled: boolean;
}

const feeText = (route: Route) => formatUsd(route.fee.usd) ?? route.fee.formatted ?? '—';

/** Routes as the API ranks them (best first); each can be locked. */
export function RouteList({ routes, providerName, onChoose, lockingRouteId, disabled }: RouteListProps) {
  return (
    <ol className={styles.routeList} aria-label="Available routes, best first">
      {routes.map((route, index) => {
        const name = providerName(route.provider);
        const headingId = `route-${index}-name`;
        const usd = formatUsd(route.dst.usd);
        const locking = lockingRouteId === route.routeId;
        return (
          <li
            key={`${route.provider}:${route.routeId}`}
            className={`${styles.routeCard} ${index === 0 ? styles.routeBest : ''}`}
            aria-labelledby={headingId}
            data-provider={route.provider}
          >
            <div className={styles.routeHead}>
              <h3 id={headingId} className={styles.routeName}>
                {name}
              </h3>
              {index === 0 && <span className={styles.tag}>Best rate</span>}
            </div>
            <p className={styles.receive}>
              <span className={styles.srOnly}>You receive </span>
              <span className={styles.receiveAmount}>{route.dst.formatted}</span>
              {usd && <span className={styles.receiveUsd}>≈ {usd}</span>}
            </p>
            <dl className={styles.stats}>
              <div className={styles.stat}>
                <dt>Fee</dt>
                <dd>{feeText(route)}</dd>
              </div>
              <div className={styles.stat}>
                <dt>Time</dt>
                <dd>{formatDuration(route.estimatedTime)}</dd>
              </div>
              {route.minimumReceived && (
                <div className={styles.stat}>
                  <dt>Min. received</dt>
                  <dd>
                    {route.minimumReceived} {route.dst.currency}
                  </dd>
                </div>
              )}
            </dl>
            <div className={styles.routeFoot}>
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
              <button
                type="button"
                className={`${styles.buttonSmall} ${styles.routeButton}`}
                onClick={() => onChoose(route)}
                disabled={disabled}
                aria-describedby={headingId}
              >
                {locking && <span className={styles.spinner} aria-hidden="true" />}
                {locking ? 'Locking…' : 'Lock this route'}
              </button>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
