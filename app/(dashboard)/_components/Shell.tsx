import Link from 'next/link';
import type { ReactNode } from 'react';
import { passesGate, type Viewer } from '@/server/auth/roles';
import styles from './dash.module.css';
import { type NavItem, NavLinks } from './NavLinks';
import { SignOutButton } from './SignOutButton';

const NAV: (NavItem & { gate: 'support' | 'admin' | 'affiliate' })[] = [
  { href: '/dashboard/transactions', label: 'Transactions', icon: '⇄', group: 'Support', gate: 'support' },
  { href: '/dashboard/operations', label: 'Operations', icon: '◎', group: 'Operate', gate: 'admin' },
  { href: '/dashboard/locks', label: 'Locks', icon: '⌁', group: 'Operate', gate: 'admin' },
  { href: '/dashboard/rate-limits', label: 'Rate limits', icon: '⊘', group: 'Operate', gate: 'admin' },
  { href: '/dashboard/affiliates', label: 'Affiliates', icon: '★', group: 'Partners', gate: 'affiliate' },
  { href: '/dashboard/users', label: 'Users', icon: '☺', group: 'Admin', gate: 'admin' },
];

export function Shell({ viewer, children }: { viewer: Viewer; children: ReactNode }) {
  const items = NAV.filter((item) => passesGate(viewer.role, item.gate)).map(({ gate: _gate, ...item }) => item);
  return (
    <div className={styles.shell}>
      <a href="#dashboard-main" className={styles.skipLink}>
        Skip to content
      </a>
      <aside className={styles.sidebar}>
        <Link href="/dashboard" className={styles.brand}>
          <span className={styles.brandMark} aria-hidden="true">
            S
          </span>
          <span>
            Switchyard
            <span className={styles.brandSub}>Operations</span>
          </span>
        </Link>
        <NavLinks items={items} />
        <div className={styles.sidebarFooter}>
          <div>
            <div className={styles.userEmail}>{viewer.email}</div>
            <span className={styles.roleTag}>{viewer.role}</span>
          </div>
          <SignOutButton />
        </div>
      </aside>
      <main id="dashboard-main" tabIndex={-1} className={styles.main}>
        {children}
      </main>
    </div>
  );
}
