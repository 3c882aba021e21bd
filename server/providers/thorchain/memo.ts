import type { ChainType } from '../types';

/**
 * Swap memos: `=:ASSET:DEST[/REFUND]:LIMIT[/INTERVAL/QUANTITY]:…`. THORNode leaves the LIMIT field out
 * when it is zero and the swap is not streaming; it reads the limit as a float (`12345e3` is valid,
 * memo.go `parseTradeTarget`).
 */

const LIMIT_FIELD = 3;

/** LIMIT in the node's units (1e8), plain or in `12345e3` short form; undefined when absent. */
export function memoLimit(memo: string | undefined): bigint | undefined {
  const limit = memo?.split(':')[LIMIT_FIELD]?.split('/')[0];
  if (!limit) return undefined;
  const plain = /^\d+$/.exec(limit);
  if (plain) return BigInt(limit);
  const short = /^(\d+)e(\d+)$/i.exec(limit);
  return short ? BigInt(short[1] as string) * 10n ** BigInt(short[2] as string) : undefined;
}

/** The shortest exact spelling of a limit: trailing zeros become an exponent when that saves room. */
export function compactLimit(limit: bigint): string {
  const digits = limit.toString();
  const zeros = digits.length - digits.replace(/0+$/, '').length;
  if (zeros < 3) return digits;
  return `${digits.slice(0, digits.length - zeros)}e${zeros}`;
}

/** The memo with its price limit set to `limit`, keeping the streaming and affiliate fields. */
export function withMemoLimit(memo: string, limit: bigint): string {
  const fields = memo.split(':');
  const [, ...streaming] = (fields[LIMIT_FIELD] ?? '').split('/');
  fields[LIMIT_FIELD] = [compactLimit(limit), ...streaming].join('/');
  return fields.join(':');
}

/** The longest memo THORNode reads from a deposit: one OP_RETURN on UTXO chains (common/chain.go `MaxMemoLength`). */
export const maxMemoLength = (chainType: ChainType) => (chainType === 'UTXO' ? 80 : 250);

const roundUp = (value: bigint, droppedDigits: number) => {
  const unit = 10n ** BigInt(droppedDigits);
  return ((value + unit - 1n) / unit) * unit;
};

/**
 * The memo carrying at least `limit` within `maxLength` bytes: the exact limit when it fits, else the
 * limit rounded up to fewer significant digits (`1235e5`), so the minimum is never weakened. Undefined
 * when no spelling fits.
 */
export function fitMemoLimit(
  memo: string,
  limit: bigint,
  maxLength: number,
): { memo: string; limit: bigint } | undefined {
  const digits = limit.toString().length;
  for (let dropped = 0; dropped < digits; dropped++) {
    const rounded = roundUp(limit, dropped);
    const fitted = withMemoLimit(memo, rounded);
    if (Buffer.byteLength(fitted) <= maxLength) return { memo: fitted, limit: rounded };
  }
  return undefined;
}

export interface MemoParties {
  /** The target asset as written (full notation or a short code such as `e`). */
  asset: string;
  destination: string;
  refund?: string;
}

/** What a swap memo pays and to whom; undefined for anything that is not a swap memo. */
export function memoParties(memo: string | undefined): MemoParties | undefined {
  const [type, asset, parties] = (memo ?? '').trim().split(':');
  if (!type || !asset || !parties || !['=', 's', 'swap'].includes(type.toLowerCase())) return undefined;
  const [destination = '', refund] = parties.split('/');
  return { asset, destination, ...(refund ? { refund } : {}) };
}
