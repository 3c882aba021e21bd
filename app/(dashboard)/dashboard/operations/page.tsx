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
    // Trends too, in the range OperationsTrends opens on: the charts' data comes with the page instead of
    // a second round trip after hydration (#46 item 12).
    queries: () => [trpc.operations.overview.queryOptions(), trpc.operations.trends.queryOptions({ range: '24h' })],
    view: () => <OperationsView />,
  });
}
