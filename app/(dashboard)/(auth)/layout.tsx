import type { ReactNode } from 'react';
import styles from '../_components/dash.module.css';

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className={styles.authPage}>
      <div className={styles.authCard}>
        <span className={styles.brand}>
          <span className={styles.brandMark} aria-hidden="true">
            S
          </span>
          <span>
            Switchyard
            <span className={styles.brandSub}>Operations dashboard</span>
          </span>
        </span>
        {children}
      </div>
    </main>
  );
}
