import type { RouteAsset } from '../types';

export type ChainflipChain = 'Ethereum' | 'Arbitrum' | 'Bitcoin' | 'Solana';

export interface ChainflipAssetRef {
  asset: string;
  chain: string;
}

interface KnownAsset {
  decimals: number;
  /** Canonical address in our catalog: `native`, EIP-55 or a mint. */
  address: string;
}

const NATIVE = 'native';

/** Assets a deposit channel can be opened for, keyed by Chainflip chain then symbol. */
const ROUTABLE: Record<ChainflipChain, Record<string, KnownAsset>> = {
  Ethereum: {
    ETH: { decimals: 18, address: NATIVE },
    USDC: { decimals: 6, address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' },
    USDT: { decimals: 6, address: '0xdAC17F958D2ee523a2206206994597C13D831ec7' },
    FLIP: { decimals: 18, address: '0x826180541412D574cf1336d22c0C0a287822678A' },
  },
  Arbitrum: {
    ETH: { decimals: 18, address: NATIVE },
    USDC: { decimals: 6, address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831' },
  },
  Bitcoin: { BTC: { decimals: 8, address: NATIVE } },
  Solana: {
    SOL: { decimals: 9, address: NATIVE },
    USDC: { decimals: 6, address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' },
  },
};

/** Chains that only appear in upstream fee and status bodies (never routed by us). */
const FEE_ONLY_DECIMALS: Record<string, Record<string, number>> = {
  Polkadot: { DOT: 10 },
  Assethub: { DOT: 10, USDC: 6, USDT: 6 },
};

export const CHAINFLIP_CHAINS = Object.keys(ROUTABLE) as ChainflipChain[];

const isChainflipChain = (chain: string | undefined): chain is ChainflipChain =>
  chain !== undefined && chain in ROUTABLE;

function sameAddress(asset: RouteAsset, known: KnownAsset): boolean {
  if (known.address === NATIVE) return asset.isNative;
  if (asset.isNative) return false;
  return asset.chainType === 'EVM'
    ? asset.address.toLowerCase() === known.address.toLowerCase()
    : asset.address === known.address;
}

/** The Chainflip name of one of our catalog assets, when Chainflip can swap it. */
export function chainflipAssetOf(asset: RouteAsset): ChainflipAssetRef | undefined {
  const chain = asset.providerIds.chainflip;
  if (!isChainflipChain(chain)) return undefined;
  const known = ROUTABLE[chain][asset.symbol];
  if (!known || known.decimals !== asset.decimals || !sameAddress(asset, known)) return undefined;
  return { asset: asset.symbol, chain };
}

export function isRoutable(ref: ChainflipAssetRef): boolean {
  return isChainflipChain(ref.chain) && ref.asset in ROUTABLE[ref.chain];
}

export function chainflipDecimals(ref: ChainflipAssetRef): number | undefined {
  if (isChainflipChain(ref.chain)) return ROUTABLE[ref.chain][ref.asset]?.decimals;
  return FEE_ONLY_DECIMALS[ref.chain]?.[ref.asset];
}

export const sameChainflipAsset = (a: ChainflipAssetRef, b: ChainflipAssetRef) =>
  a.asset === b.asset && a.chain === b.chain;
