import type { Metadata } from 'next';
import { HydrateClient, prefetch, trpc } from '@/server/trpc/server';
import { PageHeader } from '../../_components/layout-parts';
import { Forbidden } from '../../_components/states';
import { viewerFor } from '../../_lib/viewer';
import { OperationsView } from './OperationsView';

export const metadata: Metadata = { title: 'Operations' };

export default async function OperationsPage() {
  const { allowed } = await viewerFor('/dashboard/operations', 'admin');
  const header = (
    <PageHeader
      title="Operations"
      lead="The last 24 hours at a glance, provider health, queues, scheduled jobs and stale swaps."
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
  prefetch(trpc.operations.overview.queryOptions());
  return (
    <HydrateClient>
      {header}
      <OperationsView />
    </HydrateClient>
  );
}
