'use client';

import { useState } from 'react';
import styles from './dash.module.css';

/** Copies `value`, or what `resolve` makes of it at click time (e.g. a path made absolute on this origin). */
export function CopyButton({
  value,
  label = 'Copy',
  resolve,
}: {
  value: string;
  label?: string;
  resolve?: (value: string) => string;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className={`${styles.button} ${styles.buttonSmall}`}
      aria-label={`${label}: ${value}`}
      onClick={async () => {
        await navigator.clipboard?.writeText(resolve ? resolve(value) : value).catch(() => {});
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      }}
    >
      {copied ? 'Copied' : label}
      <span className={styles.srOnly} aria-live="polite">
        {copied ? 'Copied to clipboard' : ''}
      </span>
    </button>
  );
}
