import type { ReactNode } from 'react';
import { SkipLink } from '@/app/_kit/a11y';
import { Brand } from '@/app/_kit/Brand';
import { passesGate, type Viewer } from '@/server/auth/roles';
import { type NavItem, NavLinks } from './NavLinks';
import { SidebarMenu } from './SidebarMenu';
import { SignOutButton } from './SignOutButton';
import styles from './shell.module.css';

const NAV: (NavItem & { gate: 'support' | 'admin' | 'affiliate' })[] = [
  { href: '/dashboard/transactions', label: 'Transactions', icon: '⇄', group: 'Support', gate: 'support' },
  { href: '/dashboard/operations', label: 'Operations', icon: '◎', group: 'Operate', gate: 'admin' },
  { href: '/dashboard/locks', label: 'Locks', icon: '⌁', group: 'Operate', gate: 'admin' },
  { href: '/dashboard/rate-limits', label: 'Rate limits', icon: '⊘', group: 'Operate', gate: 'admin' },
  { href: '/dashboard/affiliates', label: 'Affiliates', icon: '★', group: 'Partners', gate: 'affiliate' },
  { href: '/dashboard/webhooks', label: 'Webhooks', icon: '↯', group: 'Partners', gate: 'affiliate' },
  { href: '/dashboard/users', label: 'Users', icon: '☺', group: 'Admin', gate: 'admin' },
  { href: '/dashboard/audit', label: 'Audit log', icon: '§', group: 'Admin', gate: 'admin' },
];

/** The gate of the nav entry a dashboard path belongs to; null for paths no entry covers. */
export const gateForPath = (path: string) =>
  NAV.find((item) => path === item.href || path.startsWith(`${item.href}/`))?.gate ?? null;

const SUBTITLE: Record<Viewer['role'], string> = {
  admin: 'Operations',
  support: 'Support',
  affiliate: 'Partners',
};

export function Shell({ viewer, children }: { viewer: Viewer; children: ReactNode }) {
  const items = NAV.filter((item) => passesGate(viewer.role, item.gate)).map(({ gate: _gate, ...item }) => item);
  return (
    <div className={styles.shell}>
      <SkipLink target="dashboard-main" />
      <aside className={styles.sidebar}>
        <div className={styles.sidebarTop}>
          <span className={styles.brand}>
            <Brand href="/dashboard" sub={SUBTITLE[viewer.role]} />
          </span>
        </div>
        <SidebarMenu>
          <NavLinks items={items} />
          <div className={styles.sidebarFooter}>
            <div>
              <div className={styles.userEmail}>{viewer.email}</div>
              <span className={styles.role}>{viewer.role}</span>
            </div>
            <SignOutButton />
          </div>
        </SidebarMenu>
      </aside>
      <main id="dashboard-main" tabIndex={-1} className={styles.main}>
        {children}
      </main>
    </div>
  );
}
