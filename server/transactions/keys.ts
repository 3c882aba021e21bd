/** Lookup form of a hash: hex lowercased with any 0x dropped (EVM, UTXO, THORChain); others verbatim. */
export function hashKey(hash: string | null | undefined): string | null {
  if (!hash) return null;
  const trimmed = hash.trim();
  const hex = trimmed.replace(/^0x/i, '');
  return /^[0-9a-fA-F]+$/.test(hex) ? hex.toLowerCase() : trimmed;
}
