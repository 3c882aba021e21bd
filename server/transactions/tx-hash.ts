import { base58 } from '@scure/base';
import { beginCell, Cell, loadMessage, storeMessage } from '@ton/core';
import type { ChainKind } from '../catalog/addresses';

export type ParsedTxHash =
  | { ok: true; hash: string; kind: 'hex' | 'solana' | 'ton-hash' }
  | { ok: true; hash: string; kind: 'ton-boc'; normalizedHash: string }
  | { ok: false; message: string };

/**
 * TEP-467: the hash TON RPC lookups expect — the external-in message with src = addr_none,
 * import_fee = 0, no init, and the body stored as a reference.
 */
function normalizedExternalHash(boc: Cell): { raw: string; normalized: string } | undefined {
  const message = loadMessage(boc.beginParse());
  if (message.info.type !== 'external-in') return undefined;
  const raw = beginCell().store(storeMessage(message)).endCell().hash().toString('hex');
  const normalizedMessage = { ...message, init: null, info: { ...message.info, src: undefined, importFee: 0n } };
  const normalized = beginCell()
    .store(storeMessage(normalizedMessage, { forceRef: true }))
    .endCell()
    .hash()
    .toString('hex');
  return { raw, normalized };
}

function parseTon(input: string): ParsedTxHash {
  if (/^[0-9a-fA-F]{64}$/.test(input)) return { ok: true, hash: input.toLowerCase(), kind: 'ton-hash' };
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(input) || input.length < 16) {
    return { ok: false, message: 'txHash must be a 64-hex TON hash or a base64 external-message BoC' };
  }
  try {
    const cell = Cell.fromBase64(input.replace(/-/g, '+').replace(/_/g, '/'));
    const hashes = normalizedExternalHash(cell);
    if (!hashes) return { ok: false, message: 'the BoC is not an external-in message' };
    return { ok: true, hash: hashes.raw, kind: 'ton-boc', normalizedHash: hashes.normalized };
  } catch {
    return { ok: false, message: 'txHash is not a valid TON BoC' };
  }
}

/** Validates a client-reported source or deposit hash for the source chain's type. */
export function parseTxHash(chain: { key: string; type: ChainKind }, input: string): ParsedTxHash {
  const value = input.trim();
  switch (chain.type) {
    case 'EVM':
      return /^0x[0-9a-fA-F]{64}$/.test(value)
        ? { ok: true, hash: value.toLowerCase(), kind: 'hex' }
        : { ok: false, message: 'txHash must be 0x followed by 64 hex digits' };
    case 'UTXO':
    case 'COSMOS':
      return /^(0x)?[0-9a-fA-F]{64}$/.test(value)
        ? { ok: true, hash: value.replace(/^0x/i, '').toLowerCase(), kind: 'hex' }
        : { ok: false, message: 'txHash must be 64 hex digits' };
    case 'OTHER':
      if (chain.key === 'ton') return parseTon(value);
      if (chain.key === 'solana') {
        try {
          if (/^[1-9A-HJ-NP-Za-km-z]{64,90}$/.test(value) && base58.decode(value).length === 64) {
            return { ok: true, hash: value, kind: 'solana' };
          }
        } catch {}
        return { ok: false, message: 'txHash must be a base58 Solana signature' };
      }
      return { ok: false, message: 'tracking by hash is not supported on this chain' };
  }
}
