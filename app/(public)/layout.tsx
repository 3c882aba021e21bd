import type { ReactNode } from 'react';
import { SiteHeader } from './_components/SiteHeader';
import styles from './_components/ui.module.css';

export default function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <a href="#main" className={styles.skipLink}>
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" tabIndex={-1} className={styles.main}>
        {children}
      </main>
      <footer className={styles.footer}>
        <p>
          Switchyard compares cross-chain routes across providers and tracks every swap to completion. Integrators: the
          public API lives under <code>/api/v1</code>.
        </p>
      </footer>
    </>
  );
}
