'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import text from '@/app/_kit/text.module.css';
import styles from './shell.module.css';

export interface NavItem {
  href: string;
  label: string;
  icon: string;
  group: string;
}

export function NavLinks({ items }: { items: NavItem[] }) {
  const pathname = usePathname();
  const groups = [...new Set(items.map((i) => i.group))];
  return (
    <nav aria-label="Dashboard">
      {groups.map((group) => (
        <div key={group}>
          <p className={`${text.eyebrow} ${styles.navGroup}`}>{group}</p>
          <ul className={styles.navList}>
            {items
              .filter((i) => i.group === group)
              .map((item) => {
                const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
                return (
                  <li key={item.href}>
                    <Link href={item.href} className={styles.navLink} aria-current={active ? 'page' : undefined}>
                      <span className={styles.navIcon} aria-hidden="true">
                        {item.icon}
                      </span>
                      {item.label}
                    </Link>
                  </li>
                );
              })}
          </ul>
        </div>
      ))}
    </nav>
  );
}
