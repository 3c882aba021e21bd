'use client';

import { usePathname } from 'next/navigation';
import { type ReactNode, useEffect, useState } from 'react';
import { Button } from '@/app/_kit/Button';
import styles from './shell.module.css';

/** On a phone the sidebar's navigation folds behind a Menu button; it folds again after each navigation. */
export function SidebarMenu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing on a route change is the point
  useEffect(() => setOpen(false), [pathname]);
  return (
    <>
      <Button
        className={styles.menuToggle}
        aria-expanded={open}
        aria-controls="dashboard-menu"
        onClick={() => setOpen((value) => !value)}
      >
        <span aria-hidden="true">{open ? '✕' : '☰'}</span> Menu
      </Button>
      <div id="dashboard-menu" className={styles.menu} data-open={open}>
        {children}
      </div>
    </>
  );
}
