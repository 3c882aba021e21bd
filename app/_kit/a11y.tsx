import type { ComponentProps } from 'react';
import styles from './a11y.module.css';

/** Text for screen readers only: still read, never seen. */
export function VisuallyHidden({ as = 'span', ...props }: Omit<ComponentProps<'span'>, 'ref'> & { as?: 'span' | 'p' }) {
  return as === 'p' ? (
    <p className={styles.visuallyHidden} {...props} />
  ) : (
    <span className={styles.visuallyHidden} {...props} />
  );
}

/** The first focusable element of a page: jumps past the navigation to `target`. */
export function SkipLink({ target }: { target: string }) {
  return (
    <a href={`#${target}`} className={styles.skipLink}>
      Skip to content
    </a>
  );
}
