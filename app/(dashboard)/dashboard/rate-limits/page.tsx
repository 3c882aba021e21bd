import type { Metadata } from 'next';
import { PageHeader } from '@/app/_kit/Panel';
import { trpc } from '@/server/trpc/server';
import { dashboardPage } from '../../_lib/dashboard-page';
import { RateLimitsView } from './RateLimitsView';

export const metadata: Metadata = { title: 'Rate limits' };

export default function RateLimitsPage() {
  return dashboardPage({
    path: '/dashboard/rate-limits',
    gate: 'admin',
    header: () => (
      <PageHeader
        title="Rate limits"
        lead="Requests refused with 429, by route class and by client, and the limits in force."
      />
    ),
    queries: () => [trpc.rateLimits.activity.queryOptions({ range: '24h' })],
    view: () => <RateLimitsView />,
  });
}
