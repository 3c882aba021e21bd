import type { Metadata } from 'next';
import { HydrateClient, prefetch, trpc } from '@/server/trpc/server';
import { PageHeader } from '../../_components/layout-parts';
import { Forbidden } from '../../_components/states';
import { viewerFor } from '../../_lib/viewer';
import { LocksView } from './LocksView';

export const metadata: Metadata = { title: 'Locks' };

export default async function LocksPage() {
  const { allowed } = await viewerFor('/dashboard/locks', 'admin');
  const header = (
    <PageHeader
      title="Locks"
      lead="Quotes locked, executed and left to expire, and how fast they convert, by provider."
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
  prefetch(trpc.locks.activity.queryOptions({ range: '7d' }));
  return (
    <HydrateClient>
      {header}
      <LocksView />
    </HydrateClient>
  );
}
