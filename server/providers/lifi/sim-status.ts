import { fakeHex, type Outcome, type SimAsset, usdOf } from '../simulator-kit';
import { gasPriceOf, LIFI_FEE_BPS, lifiChainOf, lifiToken, nativeOf } from './sim-tokens';

export type Stage = readonly [status: string, substatus?: string];

/** A refund LI.FI pays out on the receiving chain, not back on the sending one. */
export const REFUND_ON_DESTINATION = 'refund-on-destination';
export type LifiOutcome = Outcome | typeof REFUND_ON_DESTINATION;
export const LIFI_OUTCOMES = [REFUND_ON_DESTINATION] as const;

const REFUND_STAGES: readonly Stage[] = [
  ['NOT_FOUND'],
  ['PENDING', 'WAIT_SOURCE_CONFIRMATIONS'],
  ['PENDING', 'REFUND_IN_PROGRESS'],
  ['DONE', 'REFUNDED'],
];

export const STAGES: Record<LifiOutcome, readonly Stage[]> = {
  success: [
    ['NOT_FOUND'],
    ['PENDING', 'WAIT_SOURCE_CONFIRMATIONS'],
    ['PENDING', 'WAIT_DESTINATION_TRANSACTION'],
    ['DONE', 'COMPLETED'],
  ],
  failure: [
    ['NOT_FOUND'],
    ['PENDING', 'WAIT_SOURCE_CONFIRMATIONS'],
    ['PENDING', 'WAIT_DESTINATION_TRANSACTION'],
    ['FAILED', 'SLIPPAGE_EXCEEDED'],
  ],
  refund: REFUND_STAGES,
  [REFUND_ON_DESTINATION]: REFUND_STAGES,
};

const SUBSTATUS_MESSAGES: Record<string, string> = {
  WAIT_SOURCE_CONFIRMATIONS: 'The bridge is waiting for additional confirmations.',
  WAIT_DESTINATION_TRANSACTION:
    'The bridge off-chain logic is being executed. Wait for the transaction to appear on the destination chain.',
  REFUND_IN_PROGRESS: 'The refund has been requested and it is being processed.',
  COMPLETED: 'The transfer is complete.',
  REFUNDED: 'The tokens were refunded to the sender address.',
  SLIPPAGE_EXCEEDED: 'The bridge transaction failed because the slippage was exceeded.',
};

/** What a transfer moves and between whom, as its route step was built. */
interface TransferTerms {
  tool: string;
  from: SimAsset;
  to: SimAsset;
  fromAmount: bigint;
  toAmount: bigint;
  fromAddress?: string;
  toAddress?: string;
  transactionId: string;
}

export interface Tracked extends TransferTerms {
  txHash: string;
  outcome: LifiOutcome;
  polls: number;
  /** The route step this transfer executes, when it came from one. */
  stepId?: string;
  /** INVALID answers still to give before the transfer shows. */
  invalidPolls?: number;
}

export interface Built extends TransferTerms {
  stepId: string;
  openedAt: number;
  /** The source transaction the simulated chain saw for this step, once it saw one. */
  depositHash?: string;
}

function explorerLink(asset: SimAsset, hash: string) {
  return asset.chainSeed.explorerTxUrl.replace('{hash}', hash);
}

function sendingInfo(t: Tracked) {
  const native = nativeOf(lifiChainOf(t.from)) as SimAsset;
  const gasPrice = gasPriceOf(lifiChainOf(t.from));
  const gasUsed = 150_000n;
  return {
    txHash: t.txHash,
    txLink: explorerLink(t.from, t.txHash),
    chainId: lifiChainOf(t.from),
    amount: t.fromAmount.toString(),
    amountUSD: usdOf(t.fromAmount, t.from),
    token: lifiToken(t.from),
    gasPrice: gasPrice.toString(),
    gasUsed: gasUsed.toString(),
    gasToken: lifiToken(native),
    gasAmount: (gasPrice * gasUsed).toString(),
    gasAmountUSD: usdOf(gasPrice * gasUsed, native),
    timestamp: 1_750_000_000,
    value: t.from.isNative ? t.fromAmount.toString() : '0',
    includedSteps: [],
  };
}

function receivedInfo(t: Tracked, asset: SimAsset, amount: bigint, label: string) {
  const txHash = `0x${fakeHex(`${t.txHash}:${label}`)}`;
  return {
    txHash,
    txLink: explorerLink(asset, txHash),
    chainId: lifiChainOf(asset),
    amount: amount.toString(),
    amountUSD: usdOf(amount, asset),
    token: lifiToken(asset),
    timestamp: 1_750_000_300,
  };
}

export function statusBody(t: Tracked, [status, substatus]: Stage) {
  if (status === 'NOT_FOUND') return { status };
  const lifiFee = (t.fromAmount * LIFI_FEE_BPS) / 10_000n;
  const common = {
    transactionId: t.transactionId,
    sending: sendingInfo(t),
    lifiExplorerLink: `https://scan.li.fi/tx/${t.txHash}`,
    fromAddress: t.fromAddress,
    toAddress: t.toAddress,
    tool: t.tool,
    status,
    substatus,
    substatusMessage: substatus ? SUBSTATUS_MESSAGES[substatus] : undefined,
    metadata: { integrator: 'switchyard' },
  };
  if (status === 'PENDING' || status === 'FAILED') return { ...common, receiving: { chainId: lifiChainOf(t.to) } };
  // `receiving` names the chain the refund landed on (lifinance/types src/api.ts ExtendedTransactionInfo).
  const receiving =
    substatus !== 'REFUNDED'
      ? receivedInfo(t, t.to, t.toAmount, 'receiving')
      : t.outcome === REFUND_ON_DESTINATION
        ? receivedInfo(t, t.to, t.toAmount, 'refund')
        : receivedInfo(t, t.from, t.fromAmount - lifiFee, 'refund');
  return {
    ...common,
    receiving,
    feeCosts: [
      {
        name: 'LIFI Fixed Fee',
        description: 'Fixed LI.FI fee, independent of any other fee',
        percentage: '0.0025',
        token: lifiToken(t.from),
        amount: lifiFee.toString(),
        amountUSD: usdOf(lifiFee, t.from),
        included: true,
      },
    ],
    bridgeExplorerLink: receiving.txLink,
  };
}
