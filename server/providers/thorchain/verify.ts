import type { RouteAsset } from '../types';
import { memoParties } from './memo';
import type { WireTx } from './wire';

/** What the inbound transaction behind a client-reported hash must look like to be this swap's deposit. */
export interface InboundExpectation {
  /** The vault (or EVM vault behind the router) handed out at execute. */
  inboundAddress?: string;
  memo?: string;
  /** Source asset notation and amount, in the node's units. */
  fromAsset?: string;
  amount: bigint;
  depositor: string;
  /** Account chains sign from the depositor; a UTXO deposit may spend from any of the wallet's addresses. */
  checkSender: boolean;
}

/** The observed amount may differ from the locked one by rounding to 1e8 and little else. */
export const AMOUNT_TOLERANCE_BPS = 100n;

const same = (a: string | undefined, b: string | undefined) =>
  (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();

export const checksSender = (src: RouteAsset) => src.chainType === 'EVM' || src.chainType === 'COSMOS';

/** Why the observed inbound is not this swap's deposit, or undefined when it matches everything we know. */
export function inboundMismatch(tx: WireTx, expected: InboundExpectation): string | undefined {
  if (expected.inboundAddress && tx.to_address && !same(tx.to_address, expected.inboundAddress)) {
    return `paid to ${tx.to_address}, not the vault handed out (${expected.inboundAddress})`;
  }
  const want = memoParties(expected.memo);
  if (want) {
    const got = memoParties(tx.memo);
    if (!got) return 'its memo is not a swap memo';
    if (!same(got.asset, want.asset) || !same(got.destination, want.destination)) {
      return `its memo swaps to ${got.asset} for ${got.destination}, not to ${want.asset} for ${want.destination}`;
    }
    if (want.refund && !same(got.refund, want.refund)) return 'its memo names another refund address';
  }
  if (expected.checkSender && tx.from_address && !same(tx.from_address, expected.depositor)) {
    return `sent by ${tx.from_address}, not by the depositor ${expected.depositor}`;
  }
  if (expected.fromAsset) {
    const coin = (tx.coins ?? []).find((c) => same(c.asset, expected.fromAsset));
    if (!coin) return `it does not carry ${expected.fromAsset}`;
    const observed = BigInt(coin.amount);
    const slack = (expected.amount * AMOUNT_TOLERANCE_BPS) / 10_000n;
    if (observed < expected.amount - slack || observed > expected.amount + slack) {
      return `it carries ${observed} (1e8 units), not the locked ${expected.amount}`;
    }
  }
  return undefined;
}
