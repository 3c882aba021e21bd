import type { Metadata } from 'next';
import { HydrateClient, prefetch, trpc } from '@/server/trpc/server';
import { PageHeader } from '../../_components/layout-parts';
import { Forbidden } from '../../_components/states';
import { viewerFor } from '../../_lib/viewer';
import { RateLimitsView } from './RateLimitsView';

export const metadata: Metadata = { title: 'Rate limits' };

export default async function RateLimitsPage() {
  const { allowed } = await viewerFor('/dashboard/rate-limits', 'admin');
  const header = (
    <PageHeader
      title="Rate limits"
      lead="Requests refused with 429, by route class and by client, and the limits in force."
    />
  );
  if (!allowed) {
    return (
      <>
        {header}
        <Forbidden needs="admin" />
      </>
    );
  }
  prefetch(trpc.rateLimits.activity.queryOptions({ range: '24h' }));
  return (
    <HydrateClient>
      {header}
      <RateLimitsView />
    </HydrateClient>
  );
}
