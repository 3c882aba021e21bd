'use client';

import { useState } from 'react';
import { formatAmount } from '@/app/_kit/format';
import layout from '@/app/_kit/layout.module.css';
import { Notice } from '@/app/_kit/Notice';
import { Panel } from '@/app/_kit/Panel';
import { EmptyState, ErrorState, LoadingState } from '@/app/_kit/states';
import { ErrorText } from './ErrorText';
import { RouteList } from './RouteList';
import { type RouteSort, sortRoutes } from './route-labels';
import styles from './routes.module.css';
import { pairKey, quoteOf } from './swap-state';
import type { Swap } from './useSwap';

/** The routes for the form's swap: nothing asked yet, asking, failed, none, or the list to lock one from. */
export function RoutesPanel({ swap, providerName }: { swap: Swap; providerName: (key: string) => string }) {
  const { stage, form } = swap.state;
  const routes = quoteOf(stage)?.routes ?? [];
  return (
    <Panel
      title="Routes"
      headingId="routes-title"
      headingRef={swap.headings.routes}
      busy={stage.step === 'quoting'}
      lead={
        routes.length > 0
          ? `${routes.length} route${routes.length > 1 ? 's' : ''} for ${formatAmount(routes[0]?.src.amount, routes[0]?.src.currency)}.`
          : undefined
      }
    >
      {stage.step === 'quoting' ? (
        <LoadingState label="Asking every provider for a price…" rows={2} shape="blocks" announce={false} />
      ) : stage.step === 'quote-failed' ? (
        <ErrorState
          title="Could not get routes."
          message={<ErrorText error={stage.error} />}
          onRetry={() => swap.getRoutes()}
          focusRef={swap.errors.routes}
        />
      ) : stage.step !== 'routes' && stage.step !== 'locking' ? (
        <EmptyState icon="⇄">
          <p>Choose what to send and receive, then select “Get routes” to compare providers.</p>
        </EmptyState>
      ) : routes.length === 0 ? (
        <EmptyState icon="∅" title="No route for this pair right now" titleAs="h3">
          Try another amount or asset, or check again in a minute.
        </EmptyState>
      ) : (
        <RouteChoice swap={swap} providerName={providerName} stale={stage.quote.key !== pairKey(form)} />
      )}
    </Panel>
  );
}

function RouteChoice({
  swap,
  providerName,
  stale,
}: {
  swap: Swap;
  providerName: (key: string) => string;
  stale: boolean;
}) {
  const { stage } = swap.state;
  const [sort, setSort] = useState<RouteSort>('amount');
  if (stage.step !== 'routes' && stage.step !== 'locking') return null;
  return (
    <div className={layout.stackTight}>
      {stale && (
        <Notice tone="warning">
          You changed the swap since these routes were fetched. Select “Get routes” again to refresh them.
        </Notice>
      )}
      {stage.step === 'routes' && stage.lockError && (
        <Notice tone="error" role="alert" title="Could not lock that route.">
          <ErrorText error={stage.lockError} />
        </Notice>
      )}
      {stage.quote.routes.length > 1 && <SortChoice sort={sort} onChange={setSort} />}
      <RouteList
        routes={sortRoutes(stage.quote.routes, sort)}
        best={stage.quote.routes[0]}
        order={sort === 'amount' ? 'best rate first' : 'fastest first'}
        providerName={providerName}
        onChoose={swap.chooseRoute}
        lockingRouteId={stage.step === 'locking' ? stage.routeId : null}
        disabled={stale || stage.step === 'locking'}
      />
    </div>
  );
}

const SORTS: { value: RouteSort; label: string }[] = [
  { value: 'amount', label: 'Amount received' },
  { value: 'speed', label: 'Speed' },
];

function SortChoice({ sort, onChange }: { sort: RouteSort; onChange: (sort: RouteSort) => void }) {
  return (
    <fieldset className={styles.sort}>
      <legend className={styles.sortLegend}>Sort by</legend>
      {SORTS.map(({ value, label }) => (
        <label key={value} className={styles.sortOption}>
          <input
            type="radio"
            name="route-sort"
            value={value}
            checked={sort === value}
            onChange={() => onChange(value)}
          />
          {label}
        </label>
      ))}
    </fieldset>
  );
}
