'use client';

import { useEffect, useState } from 'react';
import { VisuallyHidden } from '@/app/_kit/a11y';
import { PageHeader } from '@/app/_kit/Panel';
import { api } from '../_lib/api';
import { rememberReferral } from '../_lib/referral';
import { useCatalog } from '../_lib/useCatalog';
import { LockPanel } from './LockPanel';
import { NextSteps } from './NextSteps';
import { RoutesPanel } from './RoutesPanel';
import { SwapForm } from './SwapForm';
import styles from './swap.module.css';
import { type Swap, useSwap } from './useSwap';

export function SwapPage({ referralFromUrl }: { referralFromUrl: string | null }) {
  const [referral, setReferral] = useState<string | null>(null);
  const catalog = useCatalog();
  const swap = useSwap({ referral, providerName: catalog.providerName });

  useEffect(() => {
    const code = rememberReferral(referralFromUrl);
    if (!code) return;
    // Only a registered, active code earns "Referred by"; anything else attributes nothing anyway.
    const controller = new AbortController();
    api.referral(code, controller.signal).then(
      ({ data }) => setReferral(data.active ? data.code : null),
      () => setReferral(null),
    );
    return () => controller.abort();
  }, [referralFromUrl]);

  return (
    <>
      <PageHeader
        title="Swap across chains"
        lead="Compare routes from every provider, lock the best price and follow your swap until it lands. No account needed."
        actions={
          referral && (
            <p className={styles.referral} data-testid="referral">
              Referred by <strong>{referral}</strong>
            </p>
          )
        }
      />

      <VisuallyHidden as="p" aria-live="polite" aria-atomic="true">
        {swap.state.announcement}
      </VisuallyHidden>

      <div className={styles.grid}>
        <SwapForm swap={swap} chains={catalog.chains} onReloadChains={catalog.reload} />
        <div>
          <Results swap={swap} providerName={catalog.providerName} chainName={catalog.chainNameById} />
        </div>
      </div>
    </>
  );
}

/** What follows the form: the routes, then the locked quote, then what to do to complete the swap. */
function Results({
  swap,
  providerName,
  chainName,
}: {
  swap: Swap;
  providerName: (key: string) => string;
  chainName: (chainId: number | null) => string;
}) {
  const { stage, form } = swap.state;
  if (stage.step === 'executed') {
    const srcAssets = swap.assets.src?.status === 'ready' ? swap.assets.src.data : [];
    return (
      <NextSteps
        result={stage.result}
        providerName={providerName(stage.result.provider)}
        assets={{
          src: srcAssets.find((a) => a.address === stage.quote.request.srcAddress),
          native: srcAssets.find((a) => a.isNative),
        }}
        depositor={form.depositor.trim()}
        chainName={chainName}
        headingRef={swap.headings.next}
        onRestart={swap.restart}
      />
    );
  }
  if (stage.step === 'locked' || stage.step === 'executing') {
    return (
      <LockPanel
        key={stage.lock.lockId}
        lock={stage.lock}
        deadline={stage.deadline}
        providerName={providerName(stage.lock.provider)}
        executing={stage.step === 'executing'}
        error={stage.step === 'locked' ? (stage.executeError ?? null) : null}
        headingRef={swap.headings.lock}
        onExecute={swap.execute}
        onRequote={swap.getRoutes}
        onBack={swap.backToRoutes}
        onExpire={swap.onLockExpired}
      />
    );
  }
  return <RoutesPanel swap={swap} providerName={providerName} />;
}
