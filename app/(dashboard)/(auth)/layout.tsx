import type { ReactNode } from 'react';
import { Brand } from '@/app/_kit/Brand';
import styles from './auth.module.css';

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className={styles.page}>
      <div className={styles.card}>
        <Brand sub="Operations dashboard" />
        {children}
      </div>
    </main>
  );
}
