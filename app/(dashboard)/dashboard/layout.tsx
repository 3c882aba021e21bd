import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { Shell } from '../_components/Shell';
import { currentPath, requireViewer } from '../_lib/viewer';
import { TRPCReactProvider } from '../_trpc/client';

export const metadata: Metadata = { title: { default: 'Dashboard · Switchyard', template: '%s · Switchyard' } };

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const viewer = await requireViewer(await currentPath('/dashboard'));
  return (
    <TRPCReactProvider>
      <Shell viewer={viewer}>{children}</Shell>
    </TRPCReactProvider>
  );
}
