import { getAddress } from 'viem';

export const WALLETS = {
  evm: getAddress('0x8617e340b3d01fa5f11f306f4090fd50e238070d'),
  evm2: getAddress('0xde709f2102306220921060314715629080e2fb77'),
  bitcoin: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
  cosmos: 'cosmos1hsk6jryyqjfhp5dhc55tc9jtckygx0eph6dd02',
  solana: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
  ton: 'UQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_p0p',
} as const;

export const ADDR = {
  ethNative: '0x0000000000000000000000000000000000000000',
  ethUsdc: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  arbUsdc: getAddress('0xaf88d065e77c8cc2239327c5edb3a432268e5831'),
} as const;

/** ETH on Ethereum to BTC: every provider serves it. */
export const ETH_TO_BTC = {
  srcChain: 'ethereum',
  srcAddress: ADDR.ethNative,
  dstChain: 'bitcoin',
  dstAddress: 'native',
  amount: '1.5',
  slippage: 100,
  depositor: WALLETS.evm,
  recipient: WALLETS.bitcoin,
};

/** USDC on Ethereum to USDC on Arbitrum: wallet calldata with an ERC-20 approval. */
export const USDC_ETH_TO_ARB = {
  srcChain: 'ethereum',
  srcAddress: ADDR.ethUsdc,
  dstChain: 'arbitrum',
  dstAddress: ADDR.arbUsdc,
  amount: '2500',
  depositor: WALLETS.evm,
  recipient: WALLETS.evm2,
};

/** BTC to ETH: a manual deposit (THORChain) or a deposit channel (Chainflip). */
export const BTC_TO_ETH = {
  srcChain: 'bitcoin',
  srcAddress: 'native',
  dstChain: 'ethereum',
  dstAddress: ADDR.ethNative,
  amount: '0.25',
  depositor: WALLETS.bitcoin,
  recipient: WALLETS.evm,
};

/** Recursively lists every key path in a JSON value, to prove a key appears nowhere. */
export function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keyPaths(v, `${prefix}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [`${prefix}.${k}`, ...keyPaths(v, `${prefix}.${k}`)]);
  }
  return [];
}
