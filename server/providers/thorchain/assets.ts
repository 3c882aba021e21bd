import type { RouteAsset } from '../types';

export type ThorNode = 'thorchain' | 'mayachain';

interface NodeProfile {
  /** The chain whose native coin settles every swap; sources on it need a MsgDeposit, not a vault deposit. */
  nativeChain: string;
  /** External chains (and the native one) the node runs vaults or pools for. */
  chains: ReadonlySet<string>;
  /** Native asset notation and its precision when it differs from the 1e8 used for everything else. */
  nativePrecision?: { asset: string; decimals: number };
  label: string;
  image: string;
}

export const NODE_PROFILES: Record<ThorNode, NodeProfile> = {
  thorchain: {
    nativeChain: 'THOR',
    chains: new Set(['BTC', 'ETH', 'LTC', 'DOGE', 'BCH', 'GAIA', 'AVAX', 'BSC', 'BASE', 'THOR']),
    label: 'THORChain',
    image: 'https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/thorchain/info/logo.png',
  },
  mayachain: {
    nativeChain: 'MAYA',
    chains: new Set(['BTC', 'ETH', 'ARB', 'THOR', 'MAYA', 'DASH', 'KUJI', 'ZEC']),
    // Unverified [G]: CACAO is quoted in 1e10, every other Maya asset in 1e8.
    nativePrecision: { asset: 'MAYA.CACAO', decimals: 10 },
    label: 'Maya Protocol',
    image: 'https://raw.githubusercontent.com/cosmos/chain-registry/master/mayachain/images/cacao.png',
  },
};

const EVM_CHAINS = new Set(['ETH', 'AVAX', 'BSC', 'BASE', 'ARB']);
const UTXO_CHAINS = new Set(['BTC', 'LTC', 'DOGE', 'BCH', 'DASH', 'ZEC']);

export const THOR_AMOUNT_DECIMALS = 8;

/** `CHAIN.SYMBOL` for natives, `CHAIN.SYMBOL-0XCONTRACT` (upper case) for tokens. */
export function thorAssetNotation(asset: RouteAsset): string | undefined {
  const chain = asset.providerIds.thorchain;
  if (!chain) return undefined;
  const symbol = asset.symbol.toUpperCase();
  return asset.isNative ? `${chain}.${symbol}` : `${chain}.${symbol}-${asset.address.toUpperCase()}`;
}

/** The precision the node uses for an asset's amounts (1e8, except a native coin with its own). */
export function nodeDecimals(node: ThorNode, notation: string): number {
  const special = NODE_PROFILES[node].nativePrecision;
  return special && special.asset === notation ? special.decimals : THOR_AMOUNT_DECIMALS;
}

export const chainOfNotation = (notation: string): string => notation.split('.')[0] ?? '';

/** The symbol part of a notation: `ETH.USDC-0XA0B8…` → `USDC`. */
export const symbolOfNotation = (notation: string): string => (notation.split('.')[1] ?? notation).split('-')[0] ?? '';

/** THORNode reports hashes upper case without `0x`; explorers want `0x…` lower case on EVM and lower case on UTXO. */
export function hashForChain(id: string, chain: string | undefined): string {
  if (chain && EVM_CHAINS.has(chain)) return `0x${id.replace(/^0x/i, '').toLowerCase()}`;
  if (chain && UTXO_CHAINS.has(chain)) return id.toLowerCase();
  return id;
}

/** The form THORNode indexes inbound hashes by. */
export const thorTxId = (hash: string): string => hash.trim().replace(/^0x/i, '').toUpperCase();
