'use client';

import { useEffect, useState } from 'react';
import styles from './ui.module.css';

/** Copies `value`; `label` names what is copied for screen readers ("Copy deposit address"). */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
  }

  return (
    <button type="button" className={styles.buttonSmall} onClick={copy} aria-label={label}>
      <span aria-hidden="true">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}</span>
      <span className={styles.srOnly} aria-live="polite">
        {state === 'copied'
          ? 'Copied to clipboard'
          : state === 'failed'
            ? 'Could not copy; select the text instead'
            : ''}
      </span>
    </button>
  );
}
