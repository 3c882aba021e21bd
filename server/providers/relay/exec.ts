import { Address as TonAddress } from '@ton/core';
import { decodeFunctionData, erc20Abi, getAddress } from 'viem';
import type { z } from 'zod';
import { ProviderError } from '../errors';
import type { ExecPayload, ExecuteInput } from '../types';
import {
  type RelayEvmTx,
  type RelayStep,
  relayEvmTxSchema,
  relaySolanaInstructionsSchema,
  relayTonMessagesSchema,
} from './wire';

// The wallet payload of a Relay quote's steps, per source VM (`TransactionStepItem.ts`).

export function badResponse(message: string): ProviderError {
  return new ProviderError('RELAY', 'BAD_RESPONSE', message);
}

export function compactStep(step: RelayStep): Record<string, unknown> {
  return {
    id: step.id,
    kind: step.kind,
    action: step.action ?? null,
    description: step.description ?? null,
    requestId: step.requestId ?? null,
    items: step.items.map((item) => ({ status: item.status ?? 'incomplete', data: item.data ?? null })),
  };
}

/** The step the wallet signs to move funds: `deposit` for cross-chain, `swap`/`send` for same-chain requests. */
function mainStep(steps: RelayStep[]): RelayStep {
  const step =
    steps.find((s) => s.id === 'deposit') ?? steps.find((s) => s.kind === 'transaction' && s.id !== 'approve');
  if (!step) throw badResponse('quote has no deposit step');
  return step;
}

function itemData<S extends z.ZodType>(step: RelayStep, schema: S, what: string): z.output<S> {
  const parsed = schema.safeParse(step.items[0]?.data);
  if (!parsed.success) throw badResponse(`${step.id} step has no readable ${what}`);
  return parsed.data;
}

function decodeApproval(step: RelayStep, srcToken: string) {
  const tx = itemData(step, relayEvmTxSchema, 'EVM transaction');
  let decoded: ReturnType<typeof decodeFunctionData<typeof erc20Abi>>;
  try {
    decoded = decodeFunctionData({ abi: erc20Abi, data: tx.data as `0x${string}` });
  } catch {
    throw badResponse('approve step calldata is not an ERC-20 call');
  }
  if (decoded.functionName !== 'approve') throw badResponse(`approve step calls ${decoded.functionName}`);
  const [spender, amount] = decoded.args;
  const approvalToken = getAddress(tx.to);
  if (approvalToken.toLowerCase() !== srcToken.toLowerCase()) throw badResponse('approve step targets another token');
  return { approvalTarget: getAddress(spender), approvalToken, approvalAmount: amount.toString() };
}

export interface ExecBase {
  srcToken: string;
  srcAmount: string;
  allSteps: Record<string, unknown>[];
  requestId: string;
}

export function evmExec(steps: RelayStep[], input: ExecuteInput, base: ExecBase): ExecPayload {
  const deposit: RelayEvmTx = itemData(mainStep(steps), relayEvmTxSchema, 'EVM transaction');
  const chainId = deposit.chainId ?? input.src.chainId;
  if (chainId !== input.src.chainId) throw badResponse(`deposit is on chain ${chainId}, not ${input.src.chainId}`);
  const approveStep = steps.find((s) => s.id === 'approve');
  return {
    chainId,
    providerTarget: getAddress(deposit.to),
    providerCalldata: deposit.data,
    value: BigInt(deposit.value).toString(),
    srcToken: base.srcToken,
    srcAmount: base.srcAmount,
    ...(approveStep && decodeApproval(approveStep, base.srcToken)),
    allSteps: base.allSteps,
    meta: { providerQuoteId: base.requestId, executionMode: 'evm-calldata', walletExecution: true },
  };
}

/** TON Connect takes no bounce flag: the address form carries it (`relay-ton-wallet-adapter` `encodeAddress`). */
function tonTarget(to: string, bounce: boolean | undefined): string {
  if (bounce === undefined) return to;
  try {
    return TonAddress.parse(to).toString({ bounceable: bounce, urlSafe: true });
  } catch {
    throw badResponse('TON deposit message has an unreadable destination');
  }
}

export function tonExec(steps: RelayStep[], base: ExecBase): ExecPayload {
  const { messages } = itemData(mainStep(steps), relayTonMessagesSchema, 'TON messages');
  const [message] = messages as [(typeof messages)[number]];
  return {
    chainId: null,
    providerTarget: tonTarget(message.to, message.bounce),
    value: message.value,
    srcToken: base.srcToken,
    srcAmount: base.srcAmount,
    allSteps: base.allSteps,
    meta: { providerQuoteId: base.requestId, executionMode: 'ton-messages', walletExecution: true },
  };
}

export function solanaExec(steps: RelayStep[], base: ExecBase): ExecPayload {
  const { instructions } = itemData(mainStep(steps), relaySolanaInstructionsSchema, 'Solana instructions');
  return {
    chainId: null,
    providerTarget: (instructions[0] as (typeof instructions)[number]).programId,
    srcToken: base.srcToken,
    srcAmount: base.srcAmount,
    allSteps: base.allSteps,
    meta: { providerQuoteId: base.requestId, executionMode: 'solana-instructions', walletExecution: true },
  };
}
