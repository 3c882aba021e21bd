import type { Metadata } from 'next';
import { trpc } from '@/server/trpc/server';
import { dashboardPage } from '../../../_lib/dashboard-page';
import { TransactionDetailView } from './TransactionDetailView';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Transaction ${(await params).id}` };
}

export default async function TransactionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return dashboardPage({
    path: `/dashboard/transactions/${id}`,
    gate: 'support',
    // The view titles itself with the transaction's id and status.
    queries: () => [
      trpc.transactions.detail.queryOptions({ id }),
      trpc.webhooks.transactionDeliveries.queryOptions({ transactionId: id }),
    ],
    view: (viewer) => <TransactionDetailView id={id} canRedeliver={viewer.role === 'admin'} />,
  });
}
