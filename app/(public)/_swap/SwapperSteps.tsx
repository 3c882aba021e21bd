import { formatTokenAmount } from '@/app/_kit/format';
import type { ExecuteResult, TrackResult } from '../_lib/api';
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
import type { WalletSend } from './track-outcome';
import { WalletSteps } from './WalletSteps';

/** How execute left the swap for the swapper: a wallet call to sign, a deposit to send, or nothing. */
export function executionOf(result: ExecuteResult | null) {
  const exec = result?.exec;
  const mode = exec?.meta.executionMode ?? result?.providerResult?.execution ?? '';
  const deposit = mode === 'deposit-address' || mode === 'deposit-channel';
  return { exec, mode, deposit, wallet: WALLET_MODES.has(mode), owed: deposit || WALLET_MODES.has(mode) };
}

/** "RELAY is waiting for your deposit", and where: the swap page and /tx/<id> say it alike. */
export const awaitingDepositText = (providerName: string, mode: string) =>
  `${providerName} is waiting for your deposit${mode === 'deposit-channel' ? ' on a dedicated channel' : ''}`;

/**
 * What the swapper still does for an executed swap — connect, approve and send from a browser
 * wallet, sign messages, or send a deposit — then the field that reports its hash. The swap page
 * shows it after Execute and /tx/<id> while the swap waits for it.
 */
export function SwapperSteps({
  result,
  transactionId,
  assets,
  depositor,
  chainName,
  onSent,
  onReported,
}: {
  result: ExecuteResult | null;
  transactionId: string | undefined;
  assets: ExecAssets;
  /** The wallet entered as the sender. */
  depositor: string;
  chainName: (chainId: number | null) => string;
  onSent?: (send: WalletSend) => void;
  /** Told when a hash pasted in "I've sent it" was taken. */
  onReported?: (answer: TrackResult) => void;
}) {
  const { exec, mode, deposit } = executionOf(result);
  return (
    <>
      {mode === 'evm-calldata' && result && exec && (
        <>
          <WalletSteps
            exec={exec}
            transactionId={transactionId}
            sendLabel={sendAmount(result, exec, assets.src)}
            approvalLabel={formatTokenAmount(exec.approvalAmount ?? exec.srcAmount, assets.src)}
            depositor={depositor}
            chainName={chainName}
            onSent={onSent}
          />
          <EvmInstructions exec={exec} assets={assets} chainName={chainName} />
        </>
      )}
      {mode === 'ton-messages' && exec && <WalletStepsInstructions exec={exec} chain="TON" assets={assets} />}
      {mode === 'solana-instructions' && exec && <WalletStepsInstructions exec={exec} chain="Solana" assets={assets} />}
      {deposit && result && <DepositInstructions result={result} exec={exec} assets={assets} />}
      {transactionId && (
        <>
          <hr className={styles.divider} />
          <TrackForm transactionId={transactionId} onAnswer={onReported} />
        </>
      )}
    </>
  );
}
