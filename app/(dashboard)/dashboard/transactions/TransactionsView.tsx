'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { columnsOf, DataTable, numeric, type SortingState } from '@/app/_kit/DataTable';
import { controlClass, Field } from '@/app/_kit/Field';
import { formatDateTime, formatUsd, formatUsualDuration } from '@/app/_kit/format';
import { Hash } from '@/app/_kit/Hash';
import layout from '@/app/_kit/layout.module.css';
import { Notice } from '@/app/_kit/Notice';
import { Panel } from '@/app/_kit/Panel';
import { StatusBadge } from '@/app/_kit/StatusBadge';
import { EmptyState } from '@/app/_kit/states';
import text from '@/app/_kit/text.module.css';
import { CsvExportStatus, ExportCsvButton, useCsvExport } from '../../_components/CsvExport';
import { providerCell, SwapRoute } from '../../_components/cells';
import { QueryState } from '../../_components/states';
import { type RouterOutputs, useTRPC } from '../../_trpc/client';
import forms from '../forms.module.css';
import { type ChainOption, Filters } from './Filters';
import {
  type IgnoredParam,
  ORDER_CHOICES,
  orderChoice,
  PER_PAGE,
  searchFromParams,
  sortParamOf,
  transactionsExportHref,
} from './search-params';
import styles from './transactions.module.css';

type Row = RouterOutputs['transactions']['search']['items'][number];

const SHORT: [number, number] = [6, 4];
const col = columnsOf<Row>();
const columns = col.columns([
  col.accessor('createdAt', {
    header: 'Created (UTC)',
    cell: ({ getValue, row }) => (
      <Link className={styles.rowLink} href={`/dashboard/transactions/${row.original.id}`}>
        {formatDateTime(getValue(), '')}
        <span className={`${text.mono} ${text.muted} ${styles.rowId}`}>{row.original.id}</span>
      </Link>
    ),
  }),
  col.accessor('status', {
    header: 'Status',
    cell: ({ getValue, row }) => (
      <span className={layout.inline}>
        <StatusBadge status={getValue()} />
        {row.original.stale ? <StatusBadge status="stale" label="Stale" /> : null}
        {row.original.late ? (
          <StatusBadge
            status="stale"
            label={`Late${row.original.overdueSeconds === null ? '' : ` +${formatUsualDuration(row.original.overdueSeconds)}`}`}
          />
        ) : null}
      </span>
    ),
  }),
  col.accessor('provider', { header: 'Provider', ...providerCell }),
  col.display({
    id: 'route',
    header: 'Route',
    meta: { breakable: true },
    cell: ({ row: { original: tx } }) => <SwapRoute {...tx} />,
  }),
  col.accessor('amountUsd', { header: 'USD', ...numeric(formatUsd) }),
  col.display({
    id: 'hash',
    header: 'Latest hash',
    cell: ({ row: { original: tx } }) => <Hash value={tx.outboundHash || tx.hash || null} short={SHORT} />,
  }),
  col.accessor('walletAddress', {
    header: 'Wallet',
    enableSorting: false,
    cell: (c) => <Hash value={c.getValue()} short={SHORT} />,
  }),
  col.accessor('referralCode', {
    header: 'Referral',
    enableSorting: false,
    meta: { anywhere: true },
    cell: (c) => c.getValue() ?? <span className={text.muted}>—</span>,
  }),
]);

/** Search, filters, sorting and the page all live in the URL, so a search can be shared and survives a reload. */
export function TransactionsView({ chains }: { chains: ChainOption[] }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const { input, ignored } = searchFromParams((key) => params.get(key));
  const result = useQuery(trpc.transactions.search.queryOptions(input, { placeholderData: keepPreviousData }));
  const csv = useCsvExport();

  const navigate = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(params.toString());
    for (const [key, value] of Object.entries(patch)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    router.replace(`${pathname}?${next.toString()}`, { scroll: false });
  };

  const sorting: SortingState = [
    { id: input.sort?.field ?? 'createdAt', desc: (input.sort?.direction ?? 'desc') === 'desc' },
  ];
  const page = input.page ?? 1;

  return (
    <div className={layout.stack}>
      {ignored.length ? <IgnoredNotice ignored={ignored} /> : null}
      <Filters
        key={params.toString()}
        chains={chains}
        values={params}
        ignored={Object.fromEntries(ignored.map(({ param, reason }) => [param, reason]))}
        onApply={(values) => navigate({ ...values, page: null })}
        onReset={() => router.replace(pathname, { scroll: false })}
      />
      <Panel title="Results" actions={<ExportCsvButton control={csv} href={transactionsExportHref(input)} />}>
        <CsvExportStatus control={csv} />
        <div className={`${forms.row} ${styles.order}`}>
          <Field label="Order" hint="By lateness: pending swaps that have a route time">
            <select
              className={controlClass({ fit: true })}
              value={orderChoice(input)}
              onChange={(event) => navigate({ sort: sortParamOf(event.target.value, input), page: null })}
            >
              {ORDER_CHOICES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <QueryState query={result} loading="Loading transactions…" boxed={false}>
          {({ items, total, totalCapped }) => (
            <DataTable
              caption={`Transactions, page ${page} of ${Math.max(1, Math.ceil(total / PER_PAGE))}${totalCapped ? '+' : ''}, ${
                totalCapped ? `more than ${total.toLocaleString('en-US')}` : total
              } in total`}
              columns={columns}
              data={items}
              getRowId={(row) => row.id}
              busy={result.isFetching}
              empty={
                <EmptyState title="No transactions match">
                  Check the id or hash, or clear some filters. Hex hashes match in any case, with or without 0x.
                </EmptyState>
              }
              server={{
                sorting,
                onSortingChange: ([first]) =>
                  navigate({ sort: first ? `${first.id}.${first.desc ? 'desc' : 'asc'}` : null, page: null }),
                page,
                pageSize: PER_PAGE,
                total,
                totalCapped,
                onPageChange: (next) => navigate({ page: next > 1 ? String(next) : null }),
                noun: ['transaction', 'transactions'],
              }}
            />
          )}
        </QueryState>
      </Panel>
    </div>
  );
}

/** Says which parts of the address the search left out: a shared or hand-edited link still shows results. */
function IgnoredNotice({ ignored }: { ignored: IgnoredParam[] }) {
  return (
    <Notice tone="warning" role="status" title="Part of this page's address was ignored.">
      <ul className={styles.ignored}>
        {ignored.map(({ param, value, reason }) => (
          <li key={param}>
            <code className={text.mono}>
              {param}={value}
            </code>
            : {reason}.
          </li>
        ))}
      </ul>
      Showing results without {ignored.length === 1 ? 'it' : 'them'}.
    </Notice>
  );
}
