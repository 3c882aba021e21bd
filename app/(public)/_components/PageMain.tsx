import type { ReactNode } from 'react';
import styles from './site.module.css';

/** The main column of a public page; `#main` is where the skip link lands. */
export function PageMain({ children }: { children: ReactNode }) {
  return (
    <main id="main" tabIndex={-1} className={styles.main}>
      {children}
    </main>
  );
}
