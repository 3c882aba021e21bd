import { Detail, DetailList } from '@/app/_kit/DetailList';
import { formatLocalDateTime } from '@/app/_kit/format';
import { Hash } from '@/app/_kit/Hash';
import layout from '@/app/_kit/layout.module.css';
import { Notice } from '@/app/_kit/Notice';
import text from '@/app/_kit/text.module.css';
import type { ExecPayload, ExecuteResult } from '../_lib/api';
import styles from './next-steps.module.css';

/** What the swapper does next, by how the provider executes: sign calldata or messages, or send a deposit. */

export const WALLET_MODES = new Set(['evm-calldata', 'ton-messages', 'solana-instructions']);

function sendAmount(result: ExecuteResult, exec: ExecPayload | undefined): string {
  const src = result.quote?.src;
  if (src?.amount && src.currency) return `${src.amount} ${src.currency}`;
  if (src?.formatted) return src.formatted;
  return exec ? `${exec.srcAmount} (base units)` : '—';
}

const baseUnits = (value: string) => <span className={text.value}>{value} (base units)</span>;

function Step({ number, children }: { number?: number; children: string }) {
  return (
    <h3 className={styles.subheading}>
      {number ? (
        <span className={styles.stepNumber} aria-hidden="true">
          {number}
        </span>
      ) : null}
      {children}
    </h3>
  );
}

export function EvmInstructions({ exec }: { exec: ExecPayload }) {
  const needsApproval = Boolean(exec.approvalTarget || exec.approvalToken);
  return (
    <>
      {needsApproval && (
        <>
          <Step number={1}>Approve the token</Step>
          <DetailList className={layout.spaced}>
            {exec.approvalToken && (
              <Detail label="Token">
                <Hash value={exec.approvalToken} copy="Copy token address" />
              </Detail>
            )}
            {exec.approvalTarget && (
              <Detail label="Spender">
                <Hash value={exec.approvalTarget} copy="Copy spender address" />
              </Detail>
            )}
            {exec.approvalAmount && <Detail label="Amount">{baseUnits(exec.approvalAmount)}</Detail>}
          </DetailList>
        </>
      )}
      <Step number={needsApproval ? 2 : undefined}>Send the transaction</Step>
      <DetailList className={layout.spaced}>
        <Detail label="Chain ID">
          <span className={text.value}>{exec.chainId ?? '—'}</span>
        </Detail>
        <Detail label="To (contract)">
          <Hash value={exec.providerTarget} copy="Copy target address" />
        </Detail>
        <Detail label="Value">{baseUnits(exec.value ?? '0')}</Detail>
        {exec.providerCalldata && (
          <Detail label="Data">
            <Hash value={exec.providerCalldata} copy="Copy calldata" short={[18, 12]} />
          </Detail>
        )}
      </DetailList>
    </>
  );
}

const describeStep = (step: Record<string, unknown>, index: number): string => {
  const description = [step.description, step.action, step.id, step.type].find((v) => typeof v === 'string' && v);
  return typeof description === 'string' ? description : `Step ${index + 1}`;
};

export function WalletStepsInstructions({ exec, chain }: { exec: ExecPayload; chain: 'TON' | 'Solana' }) {
  const steps = exec.allSteps ?? [];
  const unit = chain === 'TON' ? 'message' : 'instruction';
  return (
    <>
      <p className={styles.hint}>
        Your {chain} wallet signs the {unit}s below; a dapp connector (TON Connect or a Solana wallet adapter) can take
        them from the API response as they are.
      </p>
      <DetailList className={layout.spaced}>
        <Detail label={chain === 'TON' ? 'Destination' : 'Program'}>
          <Hash value={exec.providerTarget} copy={chain === 'TON' ? 'Copy destination address' : 'Copy program id'} />
        </Detail>
        {exec.value && <Detail label="Value">{baseUnits(exec.value)}</Detail>}
        <Detail label="Amount">{baseUnits(exec.srcAmount)}</Detail>
      </DetailList>
      {steps.length > 0 && (
        <>
          <Step>{`${steps.length} step${steps.length === 1 ? '' : 's'} to sign`}</Step>
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

export function DepositInstructions({ result, exec }: { result: ExecuteResult; exec: ExecPayload | undefined }) {
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
      <DetailList className={layout.spaced}>
        <Detail label="Amount">
          <strong className={text.value}>{sendAmount(result, exec)}</strong>
        </Detail>
        {address && (
          <Detail label="Deposit address">
            <Hash value={address} copy="Copy deposit address" />
          </Detail>
        )}
        {memo && (
          <Detail label="Memo">
            <Hash value={memo} copy="Copy memo" />
          </Detail>
        )}
        {channelId && (
          <Detail label="Channel ID">
            <Hash value={channelId} copy="Copy channel id" />
          </Detail>
        )}
        {exec?.meta.expiresAt && (
          <Detail label={mode === 'deposit-channel' ? 'Channel expires' : 'Quote expires'}>
            <span className={text.value}>{formatLocalDateTime(exec.meta.expiresAt)}</span>
          </Detail>
        )}
      </DetailList>
      {memo && (
        <Notice tone="warning" className={layout.spaced}>
          Include the memo exactly as shown. A deposit without it cannot be routed.
        </Notice>
      )}
    </>
  );
}
