'use client';

import { useEffect, useState } from 'react';
import type { Hash as TxHash } from 'viem';
import { Button } from '@/app/_kit/Button';
import { Detail, DetailList } from '@/app/_kit/DetailList';
import { truncateMiddle } from '@/app/_kit/format';
import layout from '@/app/_kit/layout.module.css';
import { Notice } from '@/app/_kit/Notice';
import text from '@/app/_kit/text.module.css';
import { api, asApiError, type ExecPayload } from '../_lib/api';
import { friendlyMessage } from '../_lib/friendly';
import styles from './next-steps.module.css';
import { SentNotice } from './SentNotice';
import { trackOutcome, type WalletSend } from './track-outcome';
import {
  approvalOf,
  approve,
  connectWallet,
  injectedProvider,
  needsApproval,
  sendSwap,
  switchChain,
  type Wallet,
  walletErrorMessage,
} from './wallet';

type Phase = 'idle' | 'connecting' | 'switching' | 'approving' | 'sending' | 'tracking' | 'sent';

interface WalletStepsProps {
  exec: ExecPayload;
  transactionId: string | undefined;
  /** The amount the swap spends, in units with its symbol ("2,500 USDC"). */
  sendLabel: string;
  /** The amount the approval allows, in units with its symbol. */
  approvalLabel: string;
  /** The wallet entered as the sender. */
  depositor: string;
  chainName: (chainId: number) => string;
  /** Told once the wallet sent the swap and its hash was reported (or could not be). */
  onSent?: (send: WalletSend) => void;
}

/**
 * Connect the browser wallet, move it to the swap's chain, approve the token when the allowance is
 * short, then send the swap. The hash goes to track as soon as the wallet returns it, and the page
 * says what track made of it.
 */
export function WalletSteps({
  exec,
  transactionId,
  sendLabel,
  approvalLabel,
  depositor,
  chainName,
  onSent,
}: WalletStepsProps) {
  const [available, setAvailable] = useState<boolean | null>(null);
  const [wallet, setWallet] = useState<Wallet | null>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const [approvalNeeded, setApprovalNeeded] = useState<boolean | null>(null);
  const [sent, setSent] = useState<WalletSend | null>(null);
  const [error, setError] = useState<string | null>(null);
  const approval = approvalOf(exec);
  const targetChain = exec.chainId;

  useEffect(() => {
    const provider = injectedProvider();
    setAvailable(Boolean(provider));
    if (!provider?.on) return;
    const onChain = (chainId: string) => setWallet((w) => (w ? { ...w, chainId: Number(chainId) } : w));
    const onAccounts = (accounts: readonly `0x${string}`[]) =>
      setWallet((w) => (w && accounts[0] ? { ...w, account: accounts[0] } : null));
    provider.on('chainChanged', onChain);
    provider.on('accountsChanged', onAccounts);
    return () => {
      provider.removeListener?.('chainChanged', onChain);
      provider.removeListener?.('accountsChanged', onAccounts);
    };
  }, []);

  async function run<T>(next: Phase, action: () => Promise<T>): Promise<T | undefined> {
    setError(null);
    setPhase(next);
    try {
      return await action();
    } catch (caught) {
      setError(walletErrorMessage(caught));
      setPhase('idle');
      return undefined;
    }
  }

  async function connect() {
    const provider = injectedProvider();
    if (!provider) return;
    const connected = await run('connecting', () => connectWallet(provider));
    if (!connected) return;
    setWallet(connected);
    setApprovalNeeded(approval ? await needsApproval(provider, connected.account, approval) : false);
    setPhase('idle');
  }

  async function toChain() {
    const provider = injectedProvider();
    if (!provider || !wallet || targetChain == null) return;
    const done = await run('switching', async () => {
      await switchChain(provider, targetChain);
      return true;
    });
    if (done) setWallet({ ...wallet, chainId: targetChain });
    setPhase('idle');
  }

  async function approveToken() {
    const provider = injectedProvider();
    if (!provider || !wallet || !approval) return;
    const approved = await run('approving', () => approve(provider, wallet, approval));
    if (approved) setApprovalNeeded(false);
    setPhase('idle');
  }

  async function send() {
    const provider = injectedProvider();
    if (!provider || !wallet) return;
    const hash = await run('sending', () => sendSwap(provider, wallet, exec));
    if (hash) await report(hash);
  }

  async function report(hash: TxHash) {
    const finish = (outcome: WalletSend['outcome']) => {
      const done = { hash, outcome };
      setSent(done);
      setPhase('sent');
      onSent?.(done);
    };
    if (!transactionId) return finish({ kind: 'no-transaction' });
    setPhase('tracking');
    try {
      const { data } = await api.track({ transactionId, txHash: hash });
      finish(trackOutcome(hash, data));
    } catch (caught) {
      finish({ kind: 'failed', message: friendlyMessage(asApiError(caught)) });
    }
  }

  if (available === false) {
    return (
      <Notice tone="warning" className={layout.spaced}>
        No browser wallet found. Install one (MetaMask, Rabby, Coinbase Wallet…) and reload this page, or send the
        transaction yourself with the technical details below.
      </Notice>
    );
  }

  const wrongChain = wallet && targetChain != null && wallet.chainId !== targetChain;
  const otherSender = wallet && depositor && wallet.account.toLowerCase() !== depositor.toLowerCase();
  const busy = phase !== 'idle' && phase !== 'sent';

  return (
    <section className={styles.wallet} aria-labelledby="wallet-title" data-testid="wallet">
      <h3 id="wallet-title" className={styles.subheading}>
        Your wallet
      </h3>
      {wallet ? (
        <DetailList className={layout.spaced}>
          <Detail label="Account">
            <span className={`${text.mono} ${text.value}`} title={wallet.account}>
              {truncateMiddle(wallet.account, 8, 6)}
            </span>
          </Detail>
          <Detail label="Network">{chainName(wallet.chainId)}</Detail>
          <Detail label="You send">
            <strong className={text.value}>{sendLabel}</strong>
          </Detail>
        </DetailList>
      ) : (
        <p className={styles.hint}>Connect the wallet you send from; it asks you to confirm each step.</p>
      )}

      {otherSender && (
        <Notice tone="warning" className={layout.spaced}>
          This wallet is not the sending wallet you entered ({truncateMiddle(depositor, 8, 6)}). Switch accounts in your
          wallet, or the swap may not be credited as you expect.
        </Notice>
      )}
      {error && (
        <Notice tone="error" role="alert" className={layout.spaced}>
          {error}
        </Notice>
      )}

      {phase === 'sent' && sent ? (
        <SentNotice
          send={sent}
          onRetry={sent.outcome.kind === 'failed' ? () => void report(sent.hash as TxHash) : undefined}
        />
      ) : (
        <div className={layout.actions}>
          {!wallet ? (
            <Button variant="primary" size="large" onClick={connect} busy={phase === 'connecting'} disabled={busy}>
              {phase === 'connecting' ? 'Connecting…' : 'Connect wallet'}
            </Button>
          ) : wrongChain ? (
            <Button variant="primary" size="large" onClick={toChain} busy={phase === 'switching'} disabled={busy}>
              Switch to {chainName(targetChain)}
            </Button>
          ) : approvalNeeded ? (
            <Button variant="primary" size="large" onClick={approveToken} busy={phase === 'approving'} disabled={busy}>
              {phase === 'approving' ? 'Approving…' : `Approve ${approvalLabel}`}
            </Button>
          ) : (
            <Button variant="primary" size="large" onClick={send} busy={busy} disabled={busy}>
              {phase === 'sending'
                ? 'Confirm in your wallet…'
                : phase === 'tracking'
                  ? 'Recording…'
                  : `Send ${sendLabel}`}
            </Button>
          )}
        </div>
      )}
      {wallet && approval && approvalNeeded !== null && phase !== 'sent' && (
        <p className={styles.hint}>
          {approvalNeeded
            ? 'Step 1 of 2: allow the swap contract to spend your tokens. Step 2: send the swap.'
            : 'The swap contract may already spend these tokens: one transaction to sign.'}
        </p>
      )}
    </section>
  );
}
