'use client';

import Link from 'next/link';
import { type Ref, useState } from 'react';
import { Button, buttonClass } from '@/app/_kit/Button';
import layout from '@/app/_kit/layout.module.css';
import { Notice } from '@/app/_kit/Notice';
import { Panel } from '@/app/_kit/Panel';
import text from '@/app/_kit/text.module.css';
import type { ExecuteResult } from '../_lib/api';
import type { ExecAssets } from './ExecInstructions';
import styles from './next-steps.module.css';
import { awaitingDepositText, executionOf, SwapperSteps } from './SwapperSteps';

interface NextStepsProps {
  result: ExecuteResult;
  providerName: string;
  assets: ExecAssets;
  /** The wallet entered as the sender. */
  depositor: string;
  chainName: (chainId: number | null) => string;
  headingRef: Ref<HTMLHeadingElement>;
  onRestart: () => void;
}

/**
 * After execute: what the swapper does to complete the swap, and where to follow it. The swap's own
 * page is offered as the place to follow it only once nothing is owed; until then it is where the
 * same steps can be finished later.
 */
export function NextSteps({
  result,
  providerName,
  assets,
  depositor,
  chainName,
  headingRef,
  onRestart,
}: NextStepsProps) {
  const { mode, wallet, deposit, owed } = executionOf(result);
  const [handedOver, setHandedOver] = useState(false);
  const title = wallet ? 'Sign in your wallet' : deposit ? 'Send your deposit' : 'Swap submitted';
  const txId = result.transaction?.id;
  const txPage = txId ? `/tx/${encodeURIComponent(txId)}` : '';

  return (
    <Panel
      title={title}
      headingId="next-title"
      headingRef={headingRef}
      lead={
        wallet
          ? `${providerName} prepared the transaction. Connect your wallet to review and sign it.`
          : deposit
            ? `${awaitingDepositText(providerName, mode)}.`
            : `${providerName} is executing the swap. Follow its progress on the transaction page.`
      }
    >
      <SwapperSteps
        result={result}
        transactionId={txId}
        assets={assets}
        depositor={depositor}
        chainName={chainName}
        onSent={(send) => setHandedOver(send.outcome.kind !== 'failed')}
        onReported={() => setHandedOver(true)}
      />

      {!txId ? (
        <Notice tone="warning" className={layout.spaced}>
          The provider accepted the swap but no transaction was recorded, so it cannot be tracked here.
        </Notice>
      ) : owed && !handedOver ? (
        <p className={`${styles.hint} ${layout.spaced}`} data-testid="recorded">
          Swap recorded as <code className={text.mono}>{txId}</code>. Nothing moves until you{' '}
          {deposit ? 'send the deposit' : 'sign and send it'}; <Link href={txPage}>the swap&apos;s own page</Link>{' '}
          offers the same steps if you finish later.
        </p>
      ) : (
        <Notice tone="success" className={`${layout.spaced} ${styles.recorded}`}>
          <p>
            Swap recorded as <code className={text.mono}>{txId}</code>. Its page follows the status live.
          </p>
          <Link href={txPage} className={buttonClass({ variant: 'primary', size: 'large' })}>
            Track this swap <span aria-hidden="true">→</span>
          </Link>
        </Notice>
      )}

      <div className={layout.actions}>
        <Button size="large" onClick={onRestart}>
          Start a new swap
        </Button>
      </div>
    </Panel>
  );
}
