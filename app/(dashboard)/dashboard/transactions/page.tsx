import type { Metadata } from 'next';
import { PageHeader } from '@/app/_kit/Panel';
import { listChains } from '@/server/catalog/list';
import { getAppContext } from '@/server/context';
import { trpc } from '@/server/trpc/server';
import { dashboardPage } from '../../_lib/dashboard-page';
import { searchInputFromParams } from './search-params';
import { TransactionsView } from './TransactionsView';

export const metadata: Metadata = { title: 'Transactions' };

export default async function TransactionsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const input = searchInputFromParams((key) => {
    const value = params[key];
    return Array.isArray(value) ? value[0] : value;
  });
  const chains = await listChains(getAppContext(), { page: 1, perPage: 1000 });
  return dashboardPage({
    path: '/dashboard/transactions',
    gate: 'support',
    header: () => (
      <PageHeader
        title="Transactions"
        lead="Find any swap by transaction id, lock id, source, inbound or outbound hash, or wallet."
      />
    ),
    queries: () => [trpc.transactions.search.queryOptions(input)],
    view: () => <TransactionsView chains={chains.items.map(({ key, name }) => [key, name] as const)} />,
  });
}
