import { hashKey } from '../transactions/keys';
import type { HashCheck } from './types';

/**
 * The client's hash against the deposit hashes a provider reports for a swap it knows by an id we
 * obtained ourselves (request id, channel id). The status does not rest on the client's hash here,
 * so a mismatch only withdraws the claim. `comparable` is false where the client reports a hash of
 * another form than the provider's (a TON external-message hash against the on-chain transaction).
 */
export function reportedInboundCheck(claimed: string, reported: string[], comparable = true): HashCheck | undefined {
  if (!claimed || reported.length === 0) return undefined;
  const key = hashKey(claimed);
  if (reported.some((hash) => hashKey(hash) === key))
    return { hash: claimed, verdict: 'verified', decidesStatus: false };
  if (!comparable) return undefined;
  return {
    hash: claimed,
    verdict: 'rejected',
    reason: `the provider reports ${reported.join(', ')} as this swap's deposit`,
    decidesStatus: false,
  };
}
