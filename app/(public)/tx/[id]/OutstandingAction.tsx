'use client';

import { useEffect, useState } from 'react';
import { Panel } from '@/app/_kit/Panel';
import { api, type ExecuteResult } from '../../_lib/api';
import { DepositInstructions, EvmInstructions, WalletStepsInstructions } from '../../_swap/ExecInstructions';
import { TrackForm } from '../../_swap/TrackForm';
import styles from './tracker.module.css';

/** What execute answered for this swap, while the swapper still has to send or sign it. */
export function useExecution(transactionId: string) {
  const [execution, setExecution] = useState<{ outstanding: boolean; result: ExecuteResult | null } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api
      .execution(transactionId, controller.signal)
      .then(({ data }) => setExecution({ outstanding: data.outstanding, result: data.execution }))
      .catch(() => {});
    return () => controller.abort();
  }, [transactionId]);
  return execution;
}

/** The deposit to send or the wallet call to sign, and the field that reports its hash. */
export function OutstandingAction({
  transactionId,
  result,
  providerName,
}: {
  transactionId: string;
  result: ExecuteResult | null;
  providerName: string;
}) {
  const exec = result?.exec;
  const mode = exec?.meta.executionMode ?? result?.providerResult.execution ?? '';
  const deposit = mode === 'deposit-address' || mode === 'deposit-channel';
  return (
    <Panel
      title={deposit ? 'Send your deposit' : 'Sign in your wallet'}
      headingId="action-title"
      lead={
        deposit
          ? `${providerName} is waiting for your deposit${mode === 'deposit-channel' ? ' on a dedicated channel' : ''}. Nothing happens until it arrives.`
          : `${providerName} prepared the transaction. Nothing happens until you sign and send it.`
      }
    >
      {result && deposit && <DepositInstructions result={result} exec={exec} />}
      {mode === 'evm-calldata' && exec && <EvmInstructions exec={exec} />}
      {mode === 'ton-messages' && exec && <WalletStepsInstructions exec={exec} chain="TON" />}
      {mode === 'solana-instructions' && exec && <WalletStepsInstructions exec={exec} chain="Solana" />}
      <div className={styles.trackForm}>
        <TrackForm transactionId={transactionId} />
      </div>
    </Panel>
  );
}
