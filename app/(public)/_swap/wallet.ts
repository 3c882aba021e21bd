import {
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  type EIP1193Provider,
  erc20Abi,
  type Hash,
  numberToHex,
} from 'viem';
import type { ExecPayload } from '../_lib/api';

/** An injected EIP-1193 wallet (MetaMask and the like) driven through viem. */

declare global {
  interface Window {
    ethereum?: EIP1193Provider;
  }
}

export const injectedProvider = (): EIP1193Provider | null =>
  typeof window === 'undefined' ? null : (window.ethereum ?? null);

export interface Wallet {
  account: Address;
  chainId: number;
}

const clients = (provider: EIP1193Provider) => ({
  wallet: createWalletClient({ transport: custom(provider) }),
  public: createPublicClient({ transport: custom(provider) }),
});

export async function connectWallet(provider: EIP1193Provider): Promise<Wallet> {
  const { wallet } = clients(provider);
  const [account] = await wallet.requestAddresses();
  if (!account) throw new Error('The wallet shared no account.');
  return { account, chainId: await wallet.getChainId() };
}

export async function switchChain(provider: EIP1193Provider, chainId: number): Promise<void> {
  await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: numberToHex(chainId) }] });
}

export interface Approval {
  token: Address;
  spender: Address;
  amount: bigint;
}

export function approvalOf(exec: ExecPayload): Approval | null {
  if (!exec.approvalToken || !exec.approvalTarget) return null;
  return {
    token: exec.approvalToken as Address,
    spender: exec.approvalTarget as Address,
    amount: BigInt(exec.approvalAmount ?? exec.srcAmount),
  };
}

/** True when the wallet must approve first; a wallet that cannot read the allowance is asked to approve. */
export async function needsApproval(provider: EIP1193Provider, owner: Address, approval: Approval): Promise<boolean> {
  try {
    const allowance = await clients(provider).public.readContract({
      address: approval.token,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [owner, approval.spender],
    });
    return allowance < approval.amount;
  } catch {
    return true;
  }
}

/** Sends the approval and waits until it is mined, so the swap that follows can spend the tokens. */
export async function approve(provider: EIP1193Provider, wallet: Wallet, approval: Approval): Promise<Hash> {
  const client = clients(provider);
  const hash = await client.wallet.writeContract({
    account: wallet.account,
    chain: null,
    address: approval.token,
    abi: erc20Abi,
    functionName: 'approve',
    args: [approval.spender, approval.amount],
  });
  const receipt = await client.public.waitForTransactionReceipt({ hash, pollingInterval: 1_000 });
  if (receipt.status !== 'success') throw new Error('The approval transaction failed on chain.');
  return hash;
}

export async function sendSwap(provider: EIP1193Provider, wallet: Wallet, exec: ExecPayload): Promise<Hash> {
  return clients(provider).wallet.sendTransaction({
    account: wallet.account,
    chain: null,
    to: exec.providerTarget as Address,
    data: exec.providerCalldata as `0x${string}` | undefined,
    value: BigInt(exec.value ?? '0'),
  });
}

/** A wallet's refusal ("User rejected the request") in words for the page. */
export function walletErrorMessage(error: unknown): string {
  const code =
    (error as { code?: number; cause?: { code?: number } })?.code ??
    (error as { cause?: { code?: number } })?.cause?.code;
  if (code === 4001) return 'You declined the request in your wallet.';
  if (code === 4902) return 'Your wallet does not know this network yet. Add it in the wallet, then try again.';
  const message = (error as { shortMessage?: string; message?: string })?.shortMessage ?? (error as Error)?.message;
  return message ? `Your wallet reported: ${message}` : 'Your wallet did not complete the request.';
}
