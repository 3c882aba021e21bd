'use client';

import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { VisuallyHidden } from './a11y';
import { Button } from './Button';
import styles from './copy-button.module.css';

/**
 * Copies `value` (or what `resolve` makes of it at click time, e.g. a path made absolute on this
 * origin). Where the clipboard refuses (an insecure origin, a denied permission), the value shows
 * up selected in a read-only box with "press Ctrl+C" next to it, so copying still takes one keystroke.
 */
export function CopyButton({
  value,
  label,
  resolve,
  children = 'Copy',
}: {
  value: string;
  /** The button's accessible name, saying what is copied ("Copy deposit address"). */
  label: string;
  resolve?: (value: string) => string;
  children?: ReactNode;
}) {
  const [state, setState] = useState<{ kind: 'idle' | 'copied' } | { kind: 'manual'; text: string }>({
    kind: 'idle',
  });
  const button = useRef<HTMLButtonElement>(null);
  const fallback = useRef<HTMLInputElement>(null);
  const hintId = useId();

  useEffect(() => {
    if (state.kind === 'manual') {
      fallback.current?.focus();
      fallback.current?.select();
    }
    if (state.kind !== 'copied') return;
    const timer = setTimeout(() => setState({ kind: 'idle' }), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    const text = resolve ? resolve(value) : value;
    try {
      await navigator.clipboard.writeText(text);
      setState({ kind: 'copied' });
    } catch {
      setState({ kind: 'manual', text });
    }
  }

  const finish = (next: 'idle' | 'copied') => {
    setState({ kind: next });
    button.current?.focus();
  };
  const dismiss = (event: KeyboardEvent) => {
    if (event.key === 'Escape') finish('idle');
  };

  return (
    <span className={styles.copy}>
      <Button ref={button} size="small" onClick={copy} aria-label={label}>
        {state.kind === 'copied' ? 'Copied' : children}
      </Button>
      <VisuallyHidden aria-live="polite">{state.kind === 'copied' ? 'Copied to clipboard' : ''}</VisuallyHidden>
      {state.kind === 'manual' && (
        <span className={styles.fallback}>
          <input
            ref={fallback}
            className={styles.fallbackInput}
            readOnly
            value={state.text}
            aria-label={`${label}: the text to copy`}
            aria-describedby={hintId}
            onFocus={(event) => event.currentTarget.select()}
            // The copy runs after this handler; leave the selection alone until it has.
            onCopy={() => setTimeout(() => finish('copied'))}
            onKeyDown={dismiss}
          />
          <span id={hintId} role="status">
            Copying was blocked: press Ctrl+C (⌘C on a Mac).
          </span>
        </span>
      )}
    </span>
  );
}
