'use client';

import { type Ref, useEffect, useState } from 'react';
import type { ApiError, LockedQuote } from '../_lib/api';
import { formatCountdown, formatUsd } from '../_lib/format';
import styles from './ui.module.css';

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
  const fee = formatUsd(lock.fee.usd) ?? lock.fee.formatted ?? '—';
  const dstUsd = formatUsd(lock.dst.usd);

  useEffect(() => {
    if (expired) onExpire();
  }, [expired, onExpire]);

  return (
    <section className={styles.panel} aria-labelledby="lock-title">
      <h2 id="lock-title" className={styles.panelTitle} ref={props.headingRef} tabIndex={-1}>
        Quote locked
      </h2>
      <p className={styles.panelSub}>
        {props.providerName} holds this price for a short time. Execute before the lock runs out.
      </p>

      <div className={styles.summary}>
        <div className={styles.summarySide}>
          <span className={styles.summaryLabel}>You send</span>
          <span className={styles.summaryAmount}>{lock.src.formatted}</span>
        </div>
        <span className={styles.summaryArrow} aria-hidden="true">
          →
        </span>
        <div className={styles.summarySide}>
          <span className={styles.summaryLabel}>You receive</span>
          <span className={styles.summaryAmount}>{lock.dst.formatted}</span>
          {dstUsd && <span className={styles.receiveUsd}>≈ {dstUsd}</span>}
        </div>
      </div>

      <dl className={styles.details}>
        <dt>Provider</dt>
        <dd>{props.providerName}</dd>
        <dt>Fee</dt>
        <dd>{fee}</dd>
        <dt>Lock ID</dt>
        <dd className={`${styles.mono} ${styles.value}`}>{lock.lockId}</dd>
      </dl>

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
        <p className={`${styles.alert} ${styles.spaced}`} role="alert">
          <strong>Execution failed.</strong> {error.message}
        </p>
      )}
      {expired && (
        <p className={`${styles.notice} ${styles.spaced}`}>
          Prices move, so locks are short. Get new routes to lock a fresh quote.
        </p>
      )}

      <div className={styles.actions}>
        <button
          type="button"
          className={`${styles.button} ${expired ? styles.buttonExpired : ''}`}
          onClick={props.onExecute}
          disabled={expired || executing}
          aria-busy={executing || undefined}
        >
          {executing && <span className={styles.spinner} aria-hidden="true" />}
          {expired ? 'Lock expired — get a new quote' : executing ? 'Executing…' : 'Execute'}
        </button>
        {expired ? (
          <button type="button" className={styles.buttonSecondary} onClick={props.onRequote}>
            Get new routes
          </button>
        ) : (
          <button type="button" className={styles.buttonSecondary} onClick={props.onBack} disabled={executing}>
            Back to routes
          </button>
        )}
      </div>
    </section>
  );
}
