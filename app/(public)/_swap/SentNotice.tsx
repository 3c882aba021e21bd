import type { Ref } from 'react';
import { Button } from '@/app/_kit/Button';
import { Hash } from '@/app/_kit/Hash';
import layout from '@/app/_kit/layout.module.css';
import { Notice } from '@/app/_kit/Notice';
import type { WalletSend } from './track-outcome';

const ENDED: Record<string, string> = {
  SUCCESS: 'completed',
  FAILED: 'failed',
  REFUND: 'been refunded',
  PENDING: 'ended',
};

/** Outcomes that speak of following the swap: untrue once it is final, and then no longer shown. */
export const staleOnceFinal = ({ outcome }: WalletSend) => outcome.kind === 'tracking' || outcome.kind === 'recorded';

const sentHash = (hash: string) => <Hash value={hash} copy="Copy transaction hash" short />;

/** The wallet's hash and what Switchyard did with it, said plainly; a failed report can be tried again. */
export function SentNotice({
  send,
  onRetry,
  focusRef,
}: {
  send: WalletSend;
  onRetry?: () => void;
  /** See `Notice`. */
  focusRef?: Ref<HTMLDivElement>;
}) {
  const { hash, outcome } = send;
  switch (outcome.kind) {
    case 'tracking':
      return (
        <Notice tone="success" className={layout.spaced} role="status" focusRef={focusRef}>
          Sent from your wallet: {sentHash(hash)} — we&apos;re tracking it.
        </Notice>
      );
    case 'recorded':
      return (
        <Notice tone="success" className={layout.spaced} role="status" focusRef={focusRef}>
          Sent from your wallet: {sentHash(hash)}. Switchyard recorded it; following it starts once the provider reports
          on it.
        </Notice>
      );
    case 'no-transaction':
      return (
        <Notice tone="success" className={layout.spaced} role="status" focusRef={focusRef}>
          Sent from your wallet: {sentHash(hash)}. No swap was recorded for it here, so Switchyard cannot follow it.
        </Notice>
      );
    case 'final':
      return (
        <Notice
          tone="warning"
          className={layout.spaced}
          role="status"
          focusRef={focusRef}
          title="This swap had already finished."
        >
          Your wallet sent {sentHash(hash)}, but the swap had already {ENDED[outcome.status]}, so that transaction was
          not added to it. If it was meant for this swap, contact support with the hash and the swap&apos;s ID.
        </Notice>
      );
    case 'other-hash':
      return (
        <Notice tone="warning" className={layout.spaced} role="status" focusRef={focusRef} title="Not recorded.">
          Your wallet sent {sentHash(hash)}, but this swap is already followed by another transaction,{' '}
          <Hash value={outcome.held} short />, so yours was not added to it. If yours paid for this swap, contact
          support with both hashes.
        </Notice>
      );
    case 'failed':
      return (
        <Notice tone="error" className={layout.spaced} role="alert" focusRef={focusRef} title="Not recorded yet.">
          <p>
            Your wallet sent {sentHash(hash)}, but Switchyard could not record it: {outcome.message}
          </p>
          {onRetry && (
            <Button size="small" onClick={onRetry}>
              Record it again
            </Button>
          )}
        </Notice>
      );
  }
}
