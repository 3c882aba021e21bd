'use client';

import { usePathname } from 'next/navigation';
import { Brand } from '@/app/_kit/Brand';
import styles from './site.module.css';

const LINKS = [
  { href: '/', label: 'Swap', active: (path: string) => path === '/' },
  { href: '/docs', label: 'API docs', active: (path: string) => path.startsWith('/docs') },
  { href: '/dashboard', label: 'Dashboard', active: (path: string) => path.startsWith('/dashboard') },
];

/** The API reference uses the wide page; the chrome lines up with it there. */
const useWide = () => (usePathname() ?? '/').startsWith('/docs');

export function SiteHeader() {
  const pathname = usePathname() ?? '/';
  const wide = useWide();
  return (
    <header className={styles.header}>
      <div className={wide ? `${styles.inner} ${styles.wide}` : styles.inner}>
        <Brand href="/" />
        <nav aria-label="Main" className={styles.nav}>
          <ul className={styles.navList}>
            {LINKS.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  className={styles.navLink}
                  aria-current={link.active(pathname) ? 'page' : undefined}
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}

export function SiteFooter() {
  return (
    <footer className={useWide() ? `${styles.footer} ${styles.wide}` : styles.footer}>
      <p>
        Switchyard compares cross-chain routes across providers and tracks every swap to completion. Integrators: the
        public API lives under <code>/api/v1</code>.
      </p>
    </footer>
  );
}
