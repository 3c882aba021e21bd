import type { ReactNode } from 'react';
import { SkipLink } from '@/app/_kit/a11y';
import { SiteFooter, SiteHeader } from './_components/SiteChrome';

export default function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <SkipLink target="main" />
      <SiteHeader />
      {children}
      <SiteFooter />
    </>
  );
}
