import { Detail, DetailList } from '@/app/_kit/DetailList';
import { formatExactAmount, formatTokenAmount } from '@/app/_kit/format';
import { Hash } from '@/app/_kit/Hash';
import { LocalTime } from '@/app/_kit/LocalTime';
import layout from '@/app/_kit/layout.module.css';
import { Notice } from '@/app/_kit/Notice';
import text from '@/app/_kit/text.module.css';
import { usePassed } from '@/app/_kit/usePassed';
import type { Asset, ExecPayload, ExecuteResult } from '../_lib/api';
import styles from './next-steps.module.css';

/** What the swapper does next, by how the provider executes: sign calldata or messages, or send a deposit. */

export const WALLET_MODES = new Set(['evm-calldata', 'ton-messages', 'solana-instructions']);

/** What the swap spends, in units with its symbol. */
export function sendAmount(result: ExecuteResult, exec: ExecPayload | undefined, src: Asset | undefined): string {
  const quoted = result.quote?.src;
  if (quoted?.amount && quoted.currency) return formatExactAmount(quoted.amount, quoted.currency);
  if (quoted?.formatted) return quoted.formatted;
  return formatTokenAmount(exec?.srcAmount, src);
}

const units = (value: string, asset: Asset | undefined) => (
  <span className={text.value}>{formatTokenAmount(value, asset)}</span>
);

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

/** Tokens the wallet call involves, to show its amounts in units with symbols. */
export interface ExecAssets {
  /** What the swap spends (and the approval allows). */
  src: Asset | undefined;
  /** The chain's gas token, which the transaction's value is paid in. */
  native: Asset | undefined;
}

/** The raw wallet call, for people who send it with another tool; folded away under "Technical details". */
export function EvmInstructions({
  exec,
  assets,
  chainName,
}: {
  exec: ExecPayload;
  assets: ExecAssets;
  chainName: (chainId: number | null) => string;
}) {
  const needsApproval = Boolean(exec.approvalTarget || exec.approvalToken);
  return (
    <details className={styles.technical}>
      <summary>Technical details</summary>
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
            {exec.approvalAmount && (
              <Detail label="Amount">
                <span className={text.value}>{formatTokenAmount(exec.approvalAmount, assets.src)}</span>
              </Detail>
            )}
          </DetailList>
        </>
      )}
      <Step number={needsApproval ? 2 : undefined}>Send the transaction</Step>
      <DetailList className={layout.spaced}>
        <Detail label="Network">
          <span className={text.value}>
            {chainName(exec.chainId)}
            {exec.chainId != null ? ` (chain ID ${exec.chainId})` : ''}
          </span>
        </Detail>
        <Detail label="To (contract)">
          <Hash value={exec.providerTarget} copy="Copy target address" />
        </Detail>
        <Detail label="Value">
          <span className={text.value}>{formatTokenAmount(exec.value ?? '0', assets.native)}</span>
        </Detail>
        {exec.providerCalldata && (
          <Detail label="Data">
            <Hash value={exec.providerCalldata} copy="Copy calldata" short={[18, 12]} />
          </Detail>
        )}
      </DetailList>
    </details>
  );
}

const describeStep = (step: Record<string, unknown>, index: number): string => {
  const description = [step.description, step.action, step.id, step.type].find((v) => typeof v === 'string' && v);
  return typeof description === 'string' ? description : `Step ${index + 1}`;
};

export function WalletStepsInstructions({
  exec,
  chain,
  assets,
}: {
  exec: ExecPayload;
  chain: 'TON' | 'Solana';
  assets: ExecAssets;
}) {
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
        {exec.value && <Detail label="Value">{units(exec.value, assets.native)}</Detail>}
        <Detail label="Amount">{units(exec.srcAmount, assets.src)}</Detail>
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

export function DepositInstructions({
  result,
  exec,
  assets,
}: {
  result: ExecuteResult;
  exec: ExecPayload | undefined;
  assets: ExecAssets;
}) {
  const mode = exec?.meta.executionMode ?? result.providerResult?.execution;
  const address = exec?.meta.depositAddress ?? result.providerResult?.depositAddress ?? exec?.providerTarget;
  const memo = exec?.meta.depositMemo ?? result.providerResult?.depositMemo;
  const channelId = exec?.meta.channelId ?? result.providerResult?.channelId;
  const expired = usePassed(exec?.meta.expiresAt);
  return (
    <>
      {expired ? (
        <Notice tone="error" title="This quote has expired: do not send a deposit now." className={layout.spaced}>
          {mode === 'deposit-channel'
            ? 'The channel is closed, and a deposit sent to it now is not swapped.'
            : "A deposit that arrives anyway is at risk: the address may no longer take deposits, and a swap at that moment's price under the memo's minimum is refunded, less fees."}{' '}
          Start a new swap for a fresh quote. If you sent the deposit before it expired, paste its transaction hash
          below: we check it with the provider and follow it to its end.
        </Notice>
      ) : (
        <p className={styles.hint}>
          Send exactly the amount below from your own wallet to this address.
          {mode === 'deposit-channel' ? ' The channel stays open until it expires.' : ''}
        </p>
      )}
      <DetailList className={layout.spaced}>
        <Detail label="Amount">
          <strong className={text.value}>{sendAmount(result, exec, assets.src)}</strong>
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
            <span className={text.value}>
              <LocalTime value={exec.meta.expiresAt} withDate />
            </span>
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
