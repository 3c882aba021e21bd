'use client';

import { useEffect, useState } from 'react';
import { Panel } from '@/app/_kit/Panel';
import { api, type ExecuteResult, type TxAsset } from '../../_lib/api';
import {
  DepositInstructions,
  EvmInstructions,
  type ExecAssets,
  WalletStepsInstructions,
} from '../../_swap/ExecInstructions';
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

/** The source chain's tokens the instructions name: what the swap spends and the gas token. */
function useSourceAssets(srcAsset: TxAsset): ExecAssets {
  const [assets, setAssets] = useState<ExecAssets>({ src: undefined, native: undefined });
  const { chain, contract } = srcAsset;
  useEffect(() => {
    if (!chain) return;
    const controller = new AbortController();
    api
      .assets(chain, controller.signal)
      .then(({ data }) =>
        setAssets({
          src: data.find((a) => a.address.toLowerCase() === (contract ?? '').toLowerCase()),
          native: data.find((a) => a.isNative),
        }),
      )
      .catch(() => {});
    return () => controller.abort();
  }, [chain, contract]);
  return assets;
}

/** The deposit to send or the wallet call to sign, and the field that reports its hash. */
export function OutstandingAction({
  transactionId,
  result,
  providerName,
  srcAsset,
  chainName,
}: {
  transactionId: string;
  result: ExecuteResult | null;
  providerName: string;
  srcAsset: TxAsset;
  chainName: (chainId: number | null) => string;
}) {
  const assets = useSourceAssets(srcAsset);
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
      {result && deposit && <DepositInstructions result={result} exec={exec} assets={assets} />}
      {mode === 'evm-calldata' && exec && <EvmInstructions exec={exec} assets={assets} chainName={chainName} />}
      {mode === 'ton-messages' && exec && <WalletStepsInstructions exec={exec} chain="TON" assets={assets} />}
      {mode === 'solana-instructions' && exec && <WalletStepsInstructions exec={exec} chain="Solana" assets={assets} />}
      <div className={styles.trackForm}>
        <TrackForm transactionId={transactionId} />
      </div>
    </Panel>
  );
}
