import type { Metadata } from 'next';
import { HydrateClient, prefetch, trpc } from '@/server/trpc/server';
import { PageHeader } from '../../_components/layout-parts';
import { Forbidden } from '../../_components/states';
import { viewerFor } from '../../_lib/viewer';
import { searchInputFromParams } from './search-params';
import { TransactionsView } from './TransactionsView';

export const metadata: Metadata = { title: 'Transactions' };

export default async function TransactionsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { allowed } = await viewerFor('/dashboard/transactions', 'support');
  const header = (
    <PageHeader
      title="Transactions"
      lead="Find any swap by transaction id, lock id, source, inbound or outbound hash, or wallet."
    />
  );
  if (!allowed) {
    return (
      <>
        {header}
        <Forbidden needs="support or admin" />
      </>
    );
  }
  const params = await searchParams;
  const input = searchInputFromParams((key) => {
    const value = params[key];
    return Array.isArray(value) ? value[0] : value;
  });
  prefetch(trpc.transactions.search.queryOptions(input));
  return (
    <HydrateClient>
      {header}
      <TransactionsView />
    </HydrateClient>
  );
}
