import type { Metadata } from 'next';
import { PageHeader } from '@/app/_kit/Panel';
import { trpc } from '@/server/trpc/server';
import { dashboardPage } from '../../_lib/dashboard-page';
import { OperationsView } from './OperationsView';

export const metadata: Metadata = { title: 'Operations' };

export default function OperationsPage() {
  return dashboardPage({
    path: '/dashboard/operations',
    gate: 'admin',
    header: () => (
      <PageHeader
        title="Operations"
        lead="The last 24 hours at a glance, provider health, queues, trends, scheduled jobs and stale swaps."
      />
    ),
    queries: () => [trpc.operations.overview.queryOptions()],
    view: () => <OperationsView />,
  });
}
