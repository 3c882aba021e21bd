'use client';

import Link from 'next/link';
import { type FormEvent, type ReactNode, type Ref, useState } from 'react';
import { type ApiError, api, asApiError, type ExecPayload, type ExecuteResult, type TrackResult } from '../_lib/api';
import { formatDateTime, truncateMiddle } from '../_lib/format';
import { CopyButton } from './CopyButton';
import { Field } from './Field';
import { StatusBadge } from './StatusBadge';
import styles from './ui.module.css';

interface NextStepsProps {
  result: ExecuteResult;
  providerName: string;
  headingRef: Ref<HTMLHeadingElement>;
  onRestart: () => void;
}

const WALLET_MODES = new Set(['evm-calldata', 'ton-messages', 'solana-instructions']);

function Copyable({ value, label, truncate = false }: { value: string; label: string; truncate?: boolean }) {
  return (
    <>
      <code className={`${styles.mono} ${styles.value}`} title={truncate ? value : undefined}>
        {truncate ? truncateMiddle(value, 18, 12) : value}
      </code>
      <CopyButton value={value} label={`Copy ${label}`} />
    </>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

function sendAmount(result: ExecuteResult, exec: ExecPayload | undefined): string {
  const src = result.quote?.src;
  if (src?.amount && src.currency) return `${src.amount} ${src.currency}`;
  if (src?.formatted) return src.formatted;
  return exec ? `${exec.srcAmount} (base units)` : '—';
}

function EvmInstructions({ exec }: { exec: ExecPayload }) {
  const needsApproval = Boolean(exec.approvalTarget || exec.approvalToken);
  return (
    <>
      {needsApproval && (
        <>
          <h3 className={styles.subheading}>
            <span className={styles.stepNumber} aria-hidden="true">
              1
            </span>
            Approve the token
          </h3>
          <dl className={styles.details}>
            {exec.approvalToken && (
              <Row label="Token">
                <Copyable value={exec.approvalToken} label="token address" />
              </Row>
            )}
            {exec.approvalTarget && (
              <Row label="Spender">
                <Copyable value={exec.approvalTarget} label="spender address" />
              </Row>
            )}
            {exec.approvalAmount && (
              <Row label="Amount">
                <span className={styles.value}>{exec.approvalAmount} (base units)</span>
              </Row>
            )}
          </dl>
        </>
      )}
      <h3 className={styles.subheading}>
        {needsApproval && (
          <span className={styles.stepNumber} aria-hidden="true">
            2
          </span>
        )}
        Send the transaction
      </h3>
      <dl className={styles.details}>
        <Row label="Chain ID">
          <span className={styles.value}>{exec.chainId ?? '—'}</span>
        </Row>
        <Row label="To (contract)">
          <Copyable value={exec.providerTarget} label="target address" />
        </Row>
        <Row label="Value">
          <span className={styles.value}>{exec.value ?? '0'} (base units)</span>
        </Row>
        {exec.providerCalldata && (
          <Row label="Data">
            <Copyable value={exec.providerCalldata} label="calldata" truncate />
          </Row>
        )}
      </dl>
    </>
  );
}

const describeStep = (step: Record<string, unknown>, index: number): string => {
  const text = [step.description, step.action, step.id, step.type].find((v) => typeof v === 'string' && v);
  return typeof text === 'string' ? text : `Step ${index + 1}`;
};

function WalletStepsInstructions({ exec, chain }: { exec: ExecPayload; chain: 'TON' | 'Solana' }) {
  const steps = exec.allSteps ?? [];
  const unit = chain === 'TON' ? 'message' : 'instruction';
  return (
    <>
      <p className={styles.hint}>
        Your {chain} wallet signs the {unit}s below; a dapp connector (TON Connect or a Solana wallet adapter) can take
        them from the API response as they are.
      </p>
      <dl className={styles.details}>
        <Row label={chain === 'TON' ? 'Destination' : 'Program'}>
          <Copyable value={exec.providerTarget} label={chain === 'TON' ? 'destination address' : 'program id'} />
        </Row>
        {exec.value && (
          <Row label="Value">
            <span className={styles.value}>{exec.value} (base units)</span>
          </Row>
        )}
        <Row label="Amount">
          <span className={styles.value}>{exec.srcAmount} (base units)</span>
        </Row>
      </dl>
      {steps.length > 0 && (
        <>
          <h3 className={styles.subheading}>
            {steps.length} step{steps.length === 1 ? '' : 's'} to sign
          </h3>
          <ol className={styles.hint}>
            {steps.map((step, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: provider steps are ordered and have no stable id
              <li key={i}>{describeStep(step, i)}</li>
            ))}
          </ol>
        </>
      )}
    </>
  );
}

function DepositInstructions({ result, exec }: { result: ExecuteResult; exec: ExecPayload | undefined }) {
  const mode = exec?.meta.executionMode ?? result.providerResult?.execution;
  const address = exec?.meta.depositAddress ?? result.providerResult?.depositAddress ?? exec?.providerTarget;
  const memo = exec?.meta.depositMemo ?? result.providerResult?.depositMemo;
  const channelId = exec?.meta.channelId ?? result.providerResult?.channelId;
  return (
    <>
      <p className={styles.hint}>
        Send exactly the amount below from your own wallet to this address.
        {mode === 'deposit-channel' ? ' The channel stays open until it expires.' : ''}
      </p>
      <dl className={styles.details}>
        <Row label="Amount">
          <strong className={styles.value}>{sendAmount(result, exec)}</strong>
        </Row>
        {address && (
          <Row label="Deposit address">
            <Copyable value={address} label="deposit address" />
          </Row>
        )}
        {memo && (
          <Row label="Memo">
            <Copyable value={memo} label="memo" />
          </Row>
        )}
        {channelId && (
          <Row label="Channel ID">
            <Copyable value={channelId} label="channel id" />
          </Row>
        )}
        {exec?.meta.expiresAt && (
          <Row label={mode === 'deposit-channel' ? 'Channel expires' : 'Quote expires'}>
            <span className={styles.value}>{formatDateTime(exec.meta.expiresAt)}</span>
          </Row>
        )}
      </dl>
      {memo && (
        <p className={`${styles.notice} ${styles.spaced}`}>
          Include the memo exactly as shown. A deposit without it cannot be routed.
        </p>
      )}
    </>
  );
}

function TrackForm({ transactionId }: { transactionId: string }) {
  const [hash, setHash] = useState('');
  const [pending, setPending] = useState(false);
  const [answer, setAnswer] = useState<TrackResult | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    setAnswer(null);
    try {
      const txHash = hash.trim();
      const { data } = await api.track({ transactionId, ...(txHash ? { txHash } : {}) });
      setAnswer(data);
    } catch (caught) {
      setError(asApiError(caught));
    } finally {
      setPending(false);
    }
  }

  const fieldError = error?.fieldMessages().txHash;
  return (
    <form className={styles.stack} onSubmit={submit} noValidate aria-labelledby="track-title">
      <h3 id="track-title" className={styles.subheading}>
        I&apos;ve sent it
      </h3>
      <p className={styles.hint}>
        Paste the hash of your wallet transaction or deposit so tracking can pick it up right away.
      </p>
      <div className={styles.trackForm}>
        <Field id="tx-hash" label="Transaction hash" error={fieldError}>
          <input
            className={`${styles.control} ${styles.mono}`}
            value={hash}
            onChange={(e) => setHash(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            placeholder="0x… or chain transaction id"
          />
        </Field>
        <button
          type="submit"
          className={`${styles.buttonSecondary} ${styles.trackButton}`}
          disabled={pending}
          aria-busy={pending || undefined}
        >
          {pending && <span className={styles.spinner} aria-hidden="true" />}
          {pending ? 'Sending…' : "I've sent it"}
        </button>
      </div>
      <div aria-live="polite">
        {answer && (
          <p className={styles.success}>
            Got it — tracking is {answer.tracking ? 'on' : 'not running'}. Current status{' '}
            <StatusBadge status={answer.transaction.status} />
            {answer.final ? ' (final).' : '.'}
          </p>
        )}
        {error && !fieldError && (
          <p className={styles.alert}>
            <strong>Could not record the hash.</strong> {error.message}
          </p>
        )}
        {fieldError && <span className={styles.srOnly}>Could not record the hash: {fieldError}</span>}
      </div>
    </form>
  );
}

export function NextSteps({ result, providerName, headingRef, onRestart }: NextStepsProps) {
  const exec = result.exec;
  const mode = exec?.meta.executionMode ?? result.providerResult?.execution ?? '';
  const wallet = WALLET_MODES.has(mode);
  const deposit = mode === 'deposit-address' || mode === 'deposit-channel';
  const title = wallet ? 'Sign in your wallet' : deposit ? 'Send your deposit' : 'Swap submitted';
  const txId = result.transaction?.id;

  return (
    <section className={styles.panel} aria-labelledby="next-title">
      <h2 id="next-title" className={styles.panelTitle} ref={headingRef} tabIndex={-1}>
        {title}
      </h2>
      <p className={styles.panelSub}>
        {wallet
          ? `${providerName} prepared the transaction. Review it and sign it with your wallet.`
          : deposit
            ? `${providerName} is waiting for your deposit${mode === 'deposit-channel' ? ' on a dedicated channel' : ''}.`
            : `${providerName} is executing the swap. Follow its progress on the transaction page.`}
      </p>

      {mode === 'evm-calldata' && exec && <EvmInstructions exec={exec} />}
      {mode === 'ton-messages' && exec && <WalletStepsInstructions exec={exec} chain="TON" />}
      {mode === 'solana-instructions' && exec && <WalletStepsInstructions exec={exec} chain="Solana" />}
      {deposit && <DepositInstructions result={result} exec={exec} />}

      {txId ? (
        <>
          <div className={`${styles.success} ${styles.spaced} ${styles.recorded}`}>
            <p>
              Swap recorded as <code className={styles.mono}>{txId}</code>. Its page follows the status live.
            </p>
            <Link href={`/tx/${encodeURIComponent(txId)}`} className={styles.button}>
              Track this swap <span aria-hidden="true">→</span>
            </Link>
          </div>
          <hr className={styles.divider} />
          <TrackForm transactionId={txId} />
        </>
      ) : (
        <p className={`${styles.notice} ${styles.spaced}`}>
          The provider accepted the swap but no transaction was recorded, so it cannot be tracked here.
        </p>
      )}

      <div className={styles.actions}>
        <button type="button" className={styles.buttonSecondary} onClick={onRestart}>
          Start a new swap
        </button>
      </div>
    </section>
  );
}
