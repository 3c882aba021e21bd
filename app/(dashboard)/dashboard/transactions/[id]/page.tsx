import type { Metadata } from 'next';
import { HydrateClient, prefetch, trpc } from '@/server/trpc/server';
import { PageHeader } from '../../../_components/layout-parts';
import { Forbidden } from '../../../_components/states';
import { viewerFor } from '../../../_lib/viewer';
import { TransactionDetailView } from './TransactionDetailView';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Transaction ${(await params).id}` };
}

export default async function TransactionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { allowed } = await viewerFor(`/dashboard/transactions/${id}`, 'support');
  if (!allowed) {
    return (
      <>
        <PageHeader title="Transaction" back={{ href: '/dashboard/transactions', label: 'Transactions' }} />
        <Forbidden needs="support or admin" />
      </>
    );
  }
  prefetch(trpc.transactions.detail.queryOptions({ id }));
  return (
    <HydrateClient>
      <TransactionDetailView id={id} />
    </HydrateClient>
  );
}
