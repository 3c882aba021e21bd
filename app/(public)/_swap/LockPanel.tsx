'use client';

import { type Ref, useEffect, useState } from 'react';
import { Button } from '@/app/_kit/Button';
import { Detail, DetailList } from '@/app/_kit/DetailList';
import { FeeSummary } from '@/app/_kit/FeeSummary';
import { formatAmount, formatCountdown, formatUsd } from '@/app/_kit/format';
import layout from '@/app/_kit/layout.module.css';
import { Notice } from '@/app/_kit/Notice';
import { Panel } from '@/app/_kit/Panel';
import { SwapSummary } from '@/app/_kit/SwapSummary';
import text from '@/app/_kit/text.module.css';

import type { ApiError, LockedQuote } from '../_lib/api';
import { ErrorText } from './ErrorText';
import styles from './lock-panel.module.css';

interface LockPanelProps {
  lock: LockedQuote;
  /** Client clock time when the lock runs out (from `ttlMs`, so server clock skew does not matter). */
  deadline: number;
  providerName: string;
  executing: boolean;
  error: ApiError | null;
  headingRef: Ref<HTMLHeadingElement>;
  onExecute: () => void;
  onRequote: () => void;
  onBack: () => void;
  onExpire: () => void;
}

function useRemaining(deadline: number, running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= deadline) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [running, deadline]);
  return Math.max(0, deadline - now);
}

export function LockPanel(props: LockPanelProps) {
  const { lock, deadline, executing, error, onExpire } = props;
  const remaining = useRemaining(deadline, !executing);
  const expired = remaining <= 0 || error?.code === 'QUOTE_EXPIRED';
  const share = lock.ttlMs > 0 ? Math.min(1, remaining / lock.ttlMs) : 0;
  const dstUsd = formatUsd(lock.dst.usd, '');

  useEffect(() => {
    if (expired) onExpire();
  }, [expired, onExpire]);

  return (
    <Panel
      title="Quote locked"
      headingId="lock-title"
      headingRef={props.headingRef}
      lead={`${props.providerName} holds this price for a short time. Execute before the lock runs out.`}
    >
      <SwapSummary
        send={{ amount: formatAmount(lock.src.amount, lock.src.currency) }}
        receive={{ amount: formatAmount(lock.dst.amount, lock.dst.currency), extra: dstUsd && `≈ ${dstUsd}` }}
      />

      <DetailList className={layout.spaced}>
        <Detail label="Provider">{props.providerName}</Detail>
        <Detail label="Fee">
          <FeeSummary usd={lock.fee.usd} details={lock.feeBreakdown?.items ?? lock.fee.details} />
        </Detail>
        <Detail label="Lock ID">
          <span className={`${text.mono} ${text.value}`}>{lock.lockId}</span>
        </Detail>
      </DetailList>

      <div className={styles.countdown}>
        <p className={styles.countdownText}>
          <span>{expired ? 'Lock expired' : 'Lock expires in'}</span>
          {/* Not a live region: a per-second announcement would drown everything else out. */}
          <span className={styles.countdownValue} data-testid="lock-countdown">
            {formatCountdown(remaining)}
          </span>
        </p>
        <div className={styles.bar} aria-hidden="true">
          <div
            className={[styles.barFill, share < 0.25 && styles.barLow, expired && styles.barEmpty]
              .filter(Boolean)
              .join(' ')}
            style={{ width: expired ? 0 : `${(share * 100).toFixed(1)}%` }}
          />
        </div>
      </div>

      {error && error.code !== 'QUOTE_EXPIRED' && (
        <Notice tone="error" role="alert" title="Execution failed." className={layout.spaced}>
          <ErrorText error={error} />
        </Notice>
      )}
      {expired && (
        <Notice tone="warning" className={layout.spaced}>
          This lock has run out. Prices move, so locks are short: get new routes to lock a fresh price.
        </Notice>
      )}

      <div className={layout.actions}>
        {expired ? (
          <Button variant="primary" size="large" onClick={props.onRequote}>
            Get new routes
          </Button>
        ) : (
          <>
            <Button variant="primary" size="large" onClick={props.onExecute} disabled={executing} busy={executing}>
              {executing ? 'Executing…' : 'Execute'}
            </Button>
            <Button size="large" onClick={props.onBack} disabled={executing}>
              Back to routes
            </Button>
          </>
        )}
      </div>
    </Panel>
  );
}
