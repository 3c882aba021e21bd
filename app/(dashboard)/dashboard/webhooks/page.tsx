import type { Metadata } from 'next';
import { PageHeader } from '@/app/_kit/Panel';
import { trpc } from '@/server/trpc/server';
import { dashboardPage } from '../../_lib/dashboard-page';
import { WebhooksView } from './WebhooksView';

export const metadata: Metadata = { title: 'Webhooks' };

export default function WebhooksPage() {
  return dashboardPage({
    path: '/dashboard/webhooks',
    gate: 'affiliate',
    header: (viewer) => (
      <PageHeader
        title="Webhooks"
        lead={
          viewer.role === 'admin'
            ? 'Signed HTTPS callbacks when a swap is created, changes status and settles: for every swap, or one affiliate’s.'
            : 'Signed HTTPS callbacks when a swap made with your referral codes is created, changes status and settles.'
        }
      />
    ),
    queries: () => [trpc.webhooks.list.queryOptions()],
    view: (viewer) => <WebhooksView isAdmin={viewer.role === 'admin'} />,
  });
}
