'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import styles from './ui.module.css';

const LINKS = [
  { href: '/', label: 'Swap', active: (path: string) => path === '/' },
  { href: '/docs', label: 'API docs', active: (path: string) => path.startsWith('/docs') },
  { href: '/dashboard', label: 'Dashboard', active: (path: string) => path.startsWith('/dashboard') },
];

function Logo() {
  return (
    <svg width="26" height="26" viewBox="0 0 26 26" aria-hidden="true" focusable="false">
      <rect width="26" height="26" rx="7" fill="#4cc38a" />
      <path d="M7 9h10l-3-3M19 17H9l3 3" fill="none" stroke="#06120c" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}

export function SiteHeader() {
  const pathname = usePathname() ?? '/';
  return (
    <header className={styles.header}>
      <div className={styles.headerInner}>
        <Link href="/" className={styles.brand}>
          <Logo />
          Switchyard
        </Link>
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
