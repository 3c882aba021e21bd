import { getAddress, isAddress } from 'viem';

export type ChainKind = 'EVM' | 'UTXO' | 'COSMOS' | 'OTHER';

export const EVM_NATIVE_ADDRESS = '0x0000000000000000000000000000000000000000';
export const NATIVE = 'native';
const EVM_NATIVE_ALIASES = new Set([EVM_NATIVE_ADDRESS, '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', NATIVE]);

/**
 * The form an asset address is looked up by: EVM addresses lowercased and every native alias
 * folded onto one key, so `0xEeee…`, `native` and the zero address all find the native asset.
 */
export function assetAddressKey(kind: ChainKind, address: string): string {
  const trimmed = address.trim();
  if (kind === 'EVM') {
    const lower = trimmed.toLowerCase();
    return EVM_NATIVE_ALIASES.has(lower) ? EVM_NATIVE_ADDRESS : lower;
  }
  return trimmed.toLowerCase() === NATIVE ? NATIVE : trimmed;
}

/** The canonical form returned by the API: EIP-55 for EVM, `native` for non-EVM natives. */
export function canonicalAssetAddress(kind: ChainKind, address: string): string {
  const key = assetAddressKey(kind, address);
  if (kind === 'EVM') return isAddress(key, { strict: false }) ? getAddress(key) : key;
  return key;
}

/** Wallets are matched case-insensitively on EVM and exactly elsewhere (base58 is case-sensitive). */
export function walletKey(kind: ChainKind, wallet: string): string {
  const trimmed = wallet.trim();
  return kind === 'EVM' ? trimmed.toLowerCase() : trimmed;
}

/**
 * Every key a wallet may be stored under when its chain is unknown (a search box, a history filter):
 * an EVM-shaped address has one, anything else is tried verbatim and as EVM would fold it.
 */
export function walletLookupKeys(wallet: string): string[] {
  const trimmed = wallet.trim();
  if (/^0x[0-9a-fA-F]{40}$/.test(trimmed)) return [walletKey('EVM', trimmed)];
  return [...new Set([walletKey('OTHER', trimmed), walletKey('EVM', trimmed)])];
}
