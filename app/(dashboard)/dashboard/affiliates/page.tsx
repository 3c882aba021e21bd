import type { Metadata } from 'next';
import { PageHeader } from '@/app/_kit/Panel';
import { trpc } from '@/server/trpc/server';
import { dashboardPage } from '../../_lib/dashboard-page';
import { AffiliatesView } from './AffiliatesView';

export const metadata: Metadata = { title: 'Affiliates' };

export default function AffiliatesPage() {
  return dashboardPage({
    path: '/dashboard/affiliates',
    gate: 'affiliate',
    header: (viewer) =>
      viewer.role === 'admin' ? (
        <PageHeader title="Affiliates" lead="Every affiliate’s codes and what they brought in." />
      ) : (
        <PageHeader
          title="Your referrals"
          lead="Create referral links and see the swaps, volume and fees they bring in."
        />
      ),
    queries: (viewer) => [
      trpc.affiliates.overview.queryOptions({ range: '30d' }),
      ...(viewer.role === 'admin' ? [trpc.affiliates.list.queryOptions()] : []),
    ],
    view: (viewer) => <AffiliatesView isAdmin={viewer.role === 'admin'} />,
  });
}
