import type { TrackResult, TxStatus } from '../_lib/api';

/** What became of a hash the wallet returned once it was reported to track: only what actually happened. */
export type TrackOutcome =
  | { kind: 'tracking' }
  | { kind: 'recorded' }
  | { kind: 'final'; status: TxStatus }
  | { kind: 'other-hash'; held: string }
  | { kind: 'failed'; message: string }
  | { kind: 'no-transaction' };

export interface WalletSend {
  hash: string;
  outcome: TrackOutcome;
}

const sameHash = (a: string, b: string) => (a.startsWith('0x') ? a.toLowerCase() === b.toLowerCase() : a === b);

/** Track's answer read for `hash`: a final swap takes no hash, and a swap may already be tracked by another one. */
export function trackOutcome(hash: string, answer: TrackResult): TrackOutcome {
  if (answer.final) return { kind: 'final', status: answer.transaction.status };
  const held = answer.transaction.hash || answer.transaction.inboundHash;
  if (held && !sameHash(held, hash)) return { kind: 'other-hash', held };
  return answer.tracking ? { kind: 'tracking' } : { kind: 'recorded' };
}
