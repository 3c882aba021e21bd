import Link from 'next/link';
import type { Ref } from 'react';
import { Button, buttonClass } from '@/app/_kit/Button';
import { formatTokenAmount } from '@/app/_kit/format';
import layout from '@/app/_kit/layout.module.css';
import { Notice } from '@/app/_kit/Notice';
import { Panel } from '@/app/_kit/Panel';
import text from '@/app/_kit/text.module.css';
import type { ExecuteResult } from '../_lib/api';
import {
  DepositInstructions,
  EvmInstructions,
  type ExecAssets,
  sendAmount,
  WALLET_MODES,
  WalletStepsInstructions,
} from './ExecInstructions';
import styles from './next-steps.module.css';
import { TrackForm } from './TrackForm';
import { WalletSteps } from './WalletSteps';

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

/** After execute: what the swapper does to complete the swap, and where to follow it. */
export function NextSteps({
  result,
  providerName,
  assets,
  depositor,
  chainName,
  headingRef,
  onRestart,
}: NextStepsProps) {
  const exec = result.exec;
  const mode = exec?.meta.executionMode ?? result.providerResult?.execution ?? '';
  const wallet = WALLET_MODES.has(mode);
  const deposit = mode === 'deposit-address' || mode === 'deposit-channel';
  const title = wallet ? 'Sign in your wallet' : deposit ? 'Send your deposit' : 'Swap submitted';
  const txId = result.transaction?.id;

  return (
    <Panel
      title={title}
      headingId="next-title"
      headingRef={headingRef}
      lead={
        wallet
          ? `${providerName} prepared the transaction. Connect your wallet to review and sign it.`
          : deposit
            ? `${providerName} is waiting for your deposit${mode === 'deposit-channel' ? ' on a dedicated channel' : ''}.`
            : `${providerName} is executing the swap. Follow its progress on the transaction page.`
      }
    >
      {mode === 'evm-calldata' && exec && (
        <>
          <WalletSteps
            exec={exec}
            transactionId={txId}
            sendLabel={sendAmount(result, exec, assets.src)}
            approvalLabel={formatTokenAmount(exec.approvalAmount ?? exec.srcAmount, assets.src)}
            depositor={depositor}
            chainName={chainName}
          />
          <EvmInstructions exec={exec} assets={assets} chainName={chainName} />
        </>
      )}
      {mode === 'ton-messages' && exec && <WalletStepsInstructions exec={exec} chain="TON" assets={assets} />}
      {mode === 'solana-instructions' && exec && <WalletStepsInstructions exec={exec} chain="Solana" assets={assets} />}
      {deposit && <DepositInstructions result={result} exec={exec} assets={assets} />}

      {txId ? (
        <>
          <Notice tone="success" className={`${layout.spaced} ${styles.recorded}`}>
            <p>
              Swap recorded as <code className={text.mono}>{txId}</code>. Its page follows the status live.
            </p>
            <Link
              href={`/tx/${encodeURIComponent(txId)}`}
              className={buttonClass({ variant: 'primary', size: 'large' })}
            >
              Track this swap <span aria-hidden="true">→</span>
            </Link>
          </Notice>
          <hr className={styles.divider} />
          <TrackForm transactionId={txId} />
        </>
      ) : (
        <Notice tone="warning" className={layout.spaced}>
          The provider accepted the swap but no transaction was recorded, so it cannot be tracked here.
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
