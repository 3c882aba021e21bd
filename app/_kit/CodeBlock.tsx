import type { ReactNode } from 'react';
import styles from './code-block.module.css';

/** Preformatted text (JSON, headers) that scrolls inside its box; a keyboard can reach it to scroll it. */
export function CodeBlock({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe scrollable-region-focusable)
    <pre className={styles.code} tabIndex={0} data-testid={testId}>
      {children}
    </pre>
  );
}
