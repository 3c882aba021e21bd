'use client';

import { type FormEvent, useState } from 'react';
import { VisuallyHidden } from '@/app/_kit/a11y';
import { Button } from '@/app/_kit/Button';
import { controlClass, Field } from '@/app/_kit/Field';
import { Notice } from '@/app/_kit/Notice';
import { StatusBadge } from '@/app/_kit/StatusBadge';
import { type ApiError, api, asApiError, type TrackResult } from '../_lib/api';
import { friendlyFieldMessage } from '../_lib/friendly';
import { ErrorText } from './ErrorText';
import styles from './next-steps.module.css';

/** "I've sent it": hands the wallet transaction's hash to the API so tracking picks it up at once. */
export function TrackForm({
  transactionId,
  onAnswer,
}: {
  transactionId: string;
  onAnswer?: (answer: TrackResult) => void;
}) {
  const [hash, setHash] = useState('');
  const [pending, setPending] = useState(false);
  const [answer, setAnswer] = useState<TrackResult | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    setAnswer(null);
    try {
      const txHash = hash.trim();
      const { data } = await api.track({ transactionId, ...(txHash ? { txHash } : {}) });
      setAnswer(data);
      onAnswer?.(data);
    } catch (caught) {
      setError(asApiError(caught));
    } finally {
      setPending(false);
    }
  }

  const fieldError = error?.fieldMessages((p) => friendlyFieldMessage(p.field, p.code, p.message)).txHash;
  return (
    // Posts to /tx/<id>/report when the page's script does not run (onSubmit handles it otherwise).
    <form
      className={styles.track}
      onSubmit={submit}
      method="post"
      action={`/tx/${encodeURIComponent(transactionId)}/report`}
      noValidate
      aria-labelledby="track-title"
    >
      <h3 id="track-title" className={styles.subheading}>
        I&apos;ve sent it
      </h3>
      <p className={styles.hint}>
        Paste the hash of your wallet transaction or deposit so tracking can pick it up right away.
      </p>
      <div className={styles.trackRow}>
        <Field id="tx-hash" label="Transaction hash" error={fieldError}>
          <input
            className={controlClass({ mono: true })}
            name="txHash"
            value={hash}
            onChange={(e) => setHash(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            placeholder="0x… or chain transaction id"
          />
        </Field>
        <Button type="submit" className={styles.trackButton} disabled={pending} busy={pending}>
          {pending ? 'Sending…' : "I've sent it"}
        </Button>
      </div>
      <div aria-live="polite">
        {answer && (
          <Notice tone="success">
            Got it — tracking is {answer.tracking ? 'on' : 'not running'}. Current status{' '}
            <StatusBadge status={answer.transaction.status} />
            {answer.final ? ' (final).' : '.'}
          </Notice>
        )}
        {error && !fieldError && (
          <Notice tone="error" title="Could not record the hash.">
            <ErrorText error={error} />
          </Notice>
        )}
        {fieldError && <VisuallyHidden>Could not record the hash: {fieldError}</VisuallyHidden>}
      </div>
    </form>
  );
}
