import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { forbidden } from 'next/navigation';
import type { ReactNode } from 'react';
import { Brand } from '@/app/_kit/Brand';
import layout from '@/app/_kit/layout.module.css';
import { Panel } from '@/app/_kit/Panel';
import { ErrorState } from '@/app/_kit/states';
import { passesGate } from '@/server/auth/roles';
import { AppError } from '@/server/errors';
import { RENDER_ID_HEADER, reportUnavailableRender } from '@/server/http/unavailable-pages';
import { gateForPath, Shell } from '../_components/Shell';
import { currentPath, requireViewer } from '../_lib/viewer';
import { TRPCReactProvider } from '../_trpc/client';

export const metadata: Metadata = { title: { default: 'Dashboard · Switchyard', template: '%s · Switchyard' } };

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const path = await currentPath('/dashboard');
  const viewer = await requireViewer(path).catch(async (error: unknown) => {
    if (!(error instanceof AppError) || error.status !== 503) throw error;
    reportUnavailableRender((await headers()).get(RENDER_ID_HEADER));
    return null;
  });
  if (!viewer) return <Unavailable path={path} />;
  // Checked here, before the pages' loading boundary starts streaming, so the answer can still be 403.
  const gate = gateForPath(path);
  if (gate && !passesGate(viewer.role, gate)) forbidden();
  return (
    <TRPCReactProvider>
      <Shell viewer={viewer}>{children}</Shell>
    </TRPCReactProvider>
  );
}

function Unavailable({ path }: { path: string }) {
  return (
    <main id="dashboard-main" className={layout.noticePage}>
      <Brand href="/" sub="Dashboard" />
      <Panel>
        <ErrorState
          title="The dashboard is temporarily unavailable."
          message="A service it depends on is not answering. Your data is safe; try again in a moment."
        />
        <p>
          <a href={path}>Try again</a>
        </p>
      </Panel>
    </main>
  );
}
