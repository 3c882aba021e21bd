import { hashKey } from '../../transactions/keys';
import type { LifiStatusResponse } from './wire';

/** What the transfer behind a client-reported hash must be to count as this swap's. */
export interface TransferExpectation {
  /** The transactionId LI.FI put in the calldata we handed out at execute. */
  transactionId?: string;
  fromChainId?: number;
  fromToken?: string;
  depositor: string;
  /** Source amount in base units. */
  amount: bigint;
}

/** The sent amount may differ from the locked one by little more than rounding. */
const AMOUNT_TOLERANCE_BPS = 100n;

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Why the transfer LI.FI reports is not this swap's, or undefined when it matches. `identified` says
 * whether the body carried enough to tell (a bare NOT_FOUND or a pending body without a transaction
 * id does not).
 */
export function transferMismatch(
  body: LifiStatusResponse,
  expected: TransferExpectation,
): { identified: boolean; reason?: string } {
  const sending = body.sending;
  if (expected.transactionId && body.transactionId && hashKey(body.transactionId) !== hashKey(expected.transactionId)) {
    return { identified: true, reason: `it is LI.FI transfer ${body.transactionId}, not ${expected.transactionId}` };
  }
  if (body.fromAddress && !same(body.fromAddress, expected.depositor)) {
    return {
      identified: true,
      reason: `it was sent by ${body.fromAddress}, not by the depositor ${expected.depositor}`,
    };
  }
  if (
    expected.fromChainId !== undefined &&
    sending?.chainId !== undefined &&
    sending.chainId !== expected.fromChainId
  ) {
    return { identified: true, reason: `it was sent on chain ${sending.chainId}, not ${expected.fromChainId}` };
  }
  if (expected.fromToken && sending?.token && !same(sending.token.address, expected.fromToken)) {
    return { identified: true, reason: `it sent ${sending.token.symbol}, not the locked token` };
  }
  if (sending?.amount !== undefined) {
    const sent = BigInt(sending.amount);
    const slack = (expected.amount * AMOUNT_TOLERANCE_BPS) / 10_000n;
    if (sent < expected.amount - slack || sent > expected.amount + slack) {
      return { identified: true, reason: `it sent ${sent}, not the locked ${expected.amount}` };
    }
  }
  return {
    identified: Boolean(body.transactionId && expected.transactionId) || Boolean(body.fromAddress && sending?.amount),
  };
}
