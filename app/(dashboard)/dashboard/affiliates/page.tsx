import type { Metadata } from 'next';
import { HydrateClient, prefetch, trpc } from '@/server/trpc/server';
import { PageHeader } from '../../_components/layout-parts';
import { Forbidden } from '../../_components/states';
import { viewerFor } from '../../_lib/viewer';
import { AffiliatesView } from './AffiliatesView';

export const metadata: Metadata = { title: 'Affiliates' };

export default async function AffiliatesPage() {
  const { viewer, allowed } = await viewerFor('/dashboard/affiliates', 'affiliate');
  const isAdmin = viewer.role === 'admin';
  const header = (
    <PageHeader
      title={isAdmin ? 'Affiliates' : 'Your referrals'}
      lead={
        isAdmin
          ? 'Every affiliate’s codes and what they brought in.'
          : 'Create referral links and see the swaps, volume and fees they bring in.'
      }
    />
  );
  if (!allowed) {
    return (
      <>
        {header}
        <Forbidden needs="affiliate or admin" />
      </>
    );
  }
  prefetch(trpc.affiliates.overview.queryOptions({ range: '30d' }));
  if (isAdmin) prefetch(trpc.affiliates.list.queryOptions());
  return (
    <HydrateClient>
      {header}
      <AffiliatesView isAdmin={isAdmin} />
    </HydrateClient>
  );
}
