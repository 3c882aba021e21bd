'use client';

import { useEffect, useState } from 'react';
import { Panel } from '@/app/_kit/Panel';
import { type Asset, api, type ExecuteResult, type TransactionExecution, type TxAsset } from '../../_lib/api';
import type { ExecAssets } from '../../_swap/ExecInstructions';
import { awaitingDepositText, executionOf, SwapperSteps } from '../../_swap/SwapperSteps';
import type { WalletSend } from '../../_swap/track-outcome';

/** What execute answered for this swap, while the swapper still has to send or sign it; `initial` came with the page. */
export function useExecution(transactionId: string, initial?: TransactionExecution) {
  const [execution, setExecution] = useState<{ outstanding: boolean; result: ExecuteResult | null } | null>(
    initial ? { outstanding: initial.outstanding, result: initial.execution } : null,
  );
  const [preloaded] = useState(Boolean(initial));
  useEffect(() => {
    if (preloaded) return;
    const controller = new AbortController();
    api
      .execution(transactionId, controller.signal)
      .then(({ data }) => setExecution({ outstanding: data.outstanding, result: data.execution }))
      .catch(() => {});
    return () => controller.abort();
  }, [transactionId, preloaded]);
  return execution;
}

/** The source chain's tokens the instructions name: what the swap spends and the gas token. */
function useSourceAssets(srcAsset: TxAsset, initial?: { src: Asset | null; native: Asset | null }): ExecAssets {
  const [assets, setAssets] = useState<ExecAssets>({
    src: initial?.src ?? undefined,
    native: initial?.native ?? undefined,
  });
  const [preloaded] = useState(Boolean(initial));
  const { chain, contract } = srcAsset;
  useEffect(() => {
    if (!chain || preloaded) return;
    const controller = new AbortController();
    api
      .assets(chain, controller.signal)
      .then(({ data }) => {
        const native = data.find((a) => a.isNative);
        setAssets({
          src: contract ? data.find((a) => a.address.toLowerCase() === contract.toLowerCase()) : native,
          native,
        });
      })
      .catch(() => {});
    return () => controller.abort();
  }, [chain, contract, preloaded]);
  return assets;
}

/** The deposit to send or the wallet call to sign (with the browser wallet, as on the swap page), and the field that reports its hash. */
export function OutstandingAction({
  transactionId,
  result,
  providerName,
  srcAsset,
  sourceAssets,
  depositor,
  chainName,
  onSent,
}: {
  transactionId: string;
  result: ExecuteResult | null;
  providerName: string;
  srcAsset: TxAsset;
  sourceAssets?: { src: Asset | null; native: Asset | null };
  /** The swap's source wallet. */
  depositor: string;
  chainName: (chainId: number | null) => string;
  onSent: (send: WalletSend) => void;
}) {
  const assets = useSourceAssets(srcAsset, sourceAssets);
  const { mode, deposit } = executionOf(result);
  return (
    <Panel
      title={deposit ? 'Send your deposit' : 'Sign in your wallet'}
      headingId="action-title"
      lead={
        deposit
          ? `${awaitingDepositText(providerName, mode)}. Nothing happens until it arrives.`
          : `${providerName} prepared the transaction. Nothing happens until you sign and send it.`
      }
    >
      <SwapperSteps
        result={result}
        transactionId={transactionId}
        assets={assets}
        depositor={depositor}
        chainName={chainName}
        onSent={onSent}
      />
    </Panel>
  );
}
