import { encodeFunctionData, getAddress, isAddress, parseAbi, zeroAddress } from 'viem';
import { ProviderError } from '../errors';
import type { ExecPayload, ExecuteInput, ProviderKey } from '../types';
import type { QuoteSwapResponse } from './wire';

export const THORCHAIN_ROUTER_ABI = parseAbi([
  'function depositWithExpiry(address vault, address asset, uint256 amount, string memo, uint256 expiration) payable',
]);

export const lessBps = (amount: bigint, bps: number) => (amount * BigInt(10_000 - bps)) / 10_000n;

/** The minimum the lock promised, in the node's units (older locks stored only the tolerance). */
export function lockedMinimum(input: ExecuteInput): bigint | undefined {
  const { minAmountOut, expectedAmountOut, liquidityToleranceBps } = input.providerQuote;
  if (typeof minAmountOut === 'string' && /^\d+$/.test(minAmountOut)) return BigInt(minAmountOut);
  if (typeof expectedAmountOut === 'string' && /^\d+$/.test(expectedAmountOut)) {
    return lessBps(BigInt(expectedAmountOut), Number(liquidityToleranceBps ?? input.slippageBps));
  }
  return undefined;
}

/** What the user signs on an EVM chain: the router's depositWithExpiry, after an approval for a token. */
export function evmExecution(
  key: ProviderKey,
  input: ExecuteInput,
  data: QuoteSwapResponse,
  vault: string,
  memo: string,
): ExecPayload {
  if (!data.router || !isAddress(data.router, { strict: false }) || !isAddress(vault, { strict: false })) {
    throw new ProviderError(key, 'BAD_RESPONSE', 'EVM quote without a valid router or vault address');
  }
  const router = getAddress(data.router);
  const asset = input.src.isNative ? zeroAddress : getAddress(input.src.address);
  const amount = input.amountBase.toString();
  const approval = input.src.isNative ? {} : { approvalTarget: router, approvalToken: asset, approvalAmount: amount };
  return {
    chainId: input.src.chainId,
    providerTarget: router,
    providerCalldata: encodeFunctionData({
      abi: THORCHAIN_ROUTER_ABI,
      functionName: 'depositWithExpiry',
      args: [getAddress(vault), asset, input.amountBase, memo, BigInt(data.expiry)],
    }),
    value: input.src.isNative ? amount : '0',
    srcToken: input.src.isNative ? 'native' : asset,
    srcAmount: amount,
    ...approval,
    meta: {
      selectedQuoteId: input.routeId,
      executionMode: 'evm-calldata',
      walletExecution: true,
      expiresAt: new Date(data.expiry * 1000).toISOString(),
    },
  };
}

/** What the user sends elsewhere: the amount to the vault address, with the memo. */
export function depositExecution(
  input: ExecuteInput,
  data: QuoteSwapResponse,
  vault: string,
  memo: string,
): ExecPayload {
  const amount = input.amountBase.toString();
  return {
    chainId: null,
    providerTarget: vault,
    value: amount,
    srcToken: 'native',
    srcAmount: amount,
    meta: {
      selectedQuoteId: input.routeId,
      executionMode: 'deposit-address',
      walletExecution: false,
      depositAddress: vault,
      depositMemo: memo,
      expiresAt: new Date(data.expiry * 1000).toISOString(),
    },
  };
}
