import { createHash } from 'node:crypto';
import { base58, bech32, bech32m, createBase58check } from '@scure/base';
import { Address as TonAddress } from '@ton/core';
import { isAddress } from 'viem';
import type { ChainKind } from './addresses';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const base58check = createBase58check(sha256);

/** Base58Check version bytes and segwit prefixes for the UTXO chains in the catalog. */
const UTXO_FORMATS: Record<string, { versions: number[]; segwit?: string; cashaddr?: string }> = {
  bitcoin: { versions: [0x00, 0x05], segwit: 'bc' },
  litecoin: { versions: [0x30, 0x32, 0x05], segwit: 'ltc' },
  dogecoin: { versions: [0x1e, 0x16] },
  bitcoincash: { versions: [0x00, 0x05], cashaddr: 'bitcoincash' },
};

function isBase58Check(address: string, versions: number[]): boolean {
  try {
    const payload = base58check.decode(address);
    return payload.length === 21 && versions.includes(payload[0] as number);
  } catch {
    return false;
  }
}

/** BIP-173 / BIP-350: witness v0 with 20 or 32 bytes under bech32, v1+ under bech32m. */
function isSegwit(address: string, hrp: string): boolean {
  const lower = address.toLowerCase();
  if (address !== lower && address !== address.toUpperCase()) return false;
  if (!lower.startsWith(`${hrp}1`)) return false;
  for (const codec of [bech32, bech32m]) {
    try {
      const { prefix, words } = codec.decode(lower as `${string}1${string}`);
      if (prefix !== hrp || words.length === 0) continue;
      const version = words[0] as number;
      if ((version === 0) !== (codec === bech32)) continue;
      const program = codec.fromWords(words.slice(1));
      if (version === 0 && program.length !== 20 && program.length !== 32) continue;
      if (version > 16 || program.length < 2 || program.length > 40) continue;
      return true;
    } catch {}
  }
  return false;
}

const CASHADDR_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const CASHADDR_GENERATORS = [0x98f2bc8e61n, 0x79b76d99e2n, 0xf33e5fb3c4n, 0xae2eabe2a8n, 0x1e4f43e470n];

/** CashAddr (Bitcoin Cash) checksum: a 40-bit BCH code over the prefix and payload. */
function isCashAddr(address: string, prefix: string): boolean {
  const lower = address.toLowerCase();
  if (address !== lower && address !== address.toUpperCase()) return false;
  const body = lower.startsWith(`${prefix}:`) ? lower.slice(prefix.length + 1) : lower;
  if (!/^[qp][qpzry9x8gf2tvdw0s3jn54khce6mua7l]{41}$/.test(body)) return false;
  const values = [...prefix].map((c) => c.charCodeAt(0) & 0x1f);
  values.push(0, ...[...body].map((c) => CASHADDR_CHARSET.indexOf(c)));
  let checksum = 1n;
  for (const value of values) {
    const top = checksum >> 35n;
    checksum = ((checksum & 0x07ffffffffn) << 5n) ^ BigInt(value);
    CASHADDR_GENERATORS.forEach((g, i) => {
      if ((top >> BigInt(i)) & 1n) checksum ^= g;
    });
  }
  return (checksum ^ 1n) === 0n;
}

function isUtxoAddress(chain: string, address: string): boolean {
  const format = UTXO_FORMATS[chain];
  if (!format) return false;
  if (format.segwit && isSegwit(address, format.segwit)) return true;
  if (format.cashaddr && isCashAddr(address, format.cashaddr)) return true;
  return isBase58Check(address, format.versions);
}

function isCosmosAddress(address: string, prefix: string | null): boolean {
  if (!prefix || address !== address.toLowerCase()) return false;
  try {
    const decoded = bech32.decode(address as `${string}1${string}`, 90);
    const bytes = bech32.fromWords(decoded.words);
    return decoded.prefix === prefix && (bytes.length === 20 || bytes.length === 32);
  } catch {
    return false;
  }
}

function isSolanaAddress(address: string): boolean {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address)) return false;
  try {
    return base58.decode(address).length === 32;
  } catch {
    return false;
  }
}

function isTonAddress(address: string): boolean {
  try {
    TonAddress.parse(address);
    return true;
  } catch {
    return false;
  }
}

export interface WalletChain {
  key: string;
  type: ChainKind;
  bech32Prefix: string | null;
}

/** Whether `address` is a well-formed wallet address on `chain` (checksums verified). */
export function isValidWalletAddress(chain: WalletChain, address: string): boolean {
  if (address.length === 0 || address.length > 128 || address !== address.trim()) return false;
  switch (chain.type) {
    case 'EVM':
      return isAddress(address, { strict: true });
    case 'UTXO':
      return isUtxoAddress(chain.key, address);
    case 'COSMOS':
      return isCosmosAddress(address, chain.bech32Prefix);
    case 'OTHER':
      if (chain.key === 'solana') return isSolanaAddress(address);
      if (chain.key === 'ton') return isTonAddress(address);
      return false;
  }
}
