import type { Metadata } from 'next';
import { PageHeader } from '@/app/_kit/Panel';
import { trpc } from '@/server/trpc/server';
import { dashboardPage } from '../../_lib/dashboard-page';
import { LocksView } from './LocksView';

export const metadata: Metadata = { title: 'Locks' };

export default function LocksPage() {
  return dashboardPage({
    path: '/dashboard/locks',
    gate: 'admin',
    header: () => (
      <PageHeader
        title="Locks"
        lead="Quotes locked, executed and left to expire, and how fast they convert, by provider."
      />
    ),
    queries: () => [trpc.locks.activity.queryOptions({ range: '7d' })],
    view: () => <LocksView />,
  });
}
