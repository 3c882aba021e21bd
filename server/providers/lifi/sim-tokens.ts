import { findSimAsset, type SimAsset, sameAddress } from '../simulator-kit';
import type { LifiToken } from './wire';

// The simulated LI.FI's tokens: our catalog seen through LI.FI's chain ids and token addresses.

export const EVM_NATIVE = '0x0000000000000000000000000000000000000000';
const NON_EVM_NATIVE_TOKENS: Record<number, string> = {
  1151111081099710: '11111111111111111111111111111111',
  20000000000001: 'bitcoin',
};
export const LIFI_FEE_BPS = 25n;
const GAS_PRICE_WEI: Record<number, bigint> = {
  1: 20_000_000_000n,
  56: 3_000_000_000n,
  137: 50_000_000_000n,
  43114: 25_000_000_000n,
  100: 2_000_000_000n,
};
export const gasPriceOf = (chainId: number) => GAS_PRICE_WEI[chainId] ?? 20_000_000n;

export const lifiChainOf = (asset: SimAsset) => asset.chainSeed.lifiChainId as number;

export function lifiAddressOf(asset: SimAsset): string {
  if (asset.chainSeed.type === 'EVM') return asset.isNative ? EVM_NATIVE : asset.address;
  return asset.isNative ? (NON_EVM_NATIVE_TOKENS[lifiChainOf(asset)] ?? asset.address) : asset.address;
}

export function findToken(chainId: number, address: string): SimAsset | undefined {
  const wanted = address.toLowerCase() === '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee' ? EVM_NATIVE : address;
  return findSimAsset((asset) => {
    if (asset.chainSeed.lifiChainId !== chainId) return false;
    const own = lifiAddressOf(asset);
    return asset.chainSeed.type === 'EVM' ? sameAddress(own, wanted) : own === wanted;
  });
}

export const nativeOf = (chainId: number) =>
  findSimAsset((asset) => asset.chainSeed.lifiChainId === chainId && asset.isNative);
export const usdcOf = (chainId: number) =>
  findSimAsset((asset) => asset.chainSeed.lifiChainId === chainId && asset.symbol === 'USDC');

export function lifiToken(asset: SimAsset): LifiToken {
  return {
    address: lifiAddressOf(asset),
    chainId: lifiChainOf(asset),
    symbol: asset.symbol,
    decimals: asset.decimals,
    name: asset.name,
    coinKey: asset.symbol,
    logoURI: asset.image,
    priceUSD: asset.priceUsd,
  };
}
