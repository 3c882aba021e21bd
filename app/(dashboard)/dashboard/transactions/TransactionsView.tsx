'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  createColumnHelper,
  functionalUpdate,
  type PaginationState,
  rowPaginationFeature,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  type Updater,
  useTable,
} from '@tanstack/react-table';
import type { inferRouterOutputs } from '@trpc/server';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { type FormEvent, useId } from 'react';
import { PROVIDER_KEYS } from '@/server/config';
import { TX_STATUSES } from '@/server/schemas/transactions';
import type { AppRouter } from '@/server/trpc/routers/_app';
import styles from '../../_components/dash.module.css';
import { formatDateTime, formatUsd } from '../../_components/format';
import { Hash } from '../../_components/Hash';
import { describeError } from '../../_components/query-error';
import { StatusBadge } from '../../_components/StatusBadge';
import { EmptyState, ErrorState, LoadingState } from '../../_components/states';
import { useTRPC } from '../../_trpc/client';
import { PER_PAGE, searchInputFromParams } from './search-params';

type Row = inferRouterOutputs<AppRouter>['transactions']['search']['items'][number];

const features = tableFeatures({ rowSortingFeature, rowPaginationFeature });
const helper = createColumnHelper<typeof features, Row>();
const noRows: Row[] = [];

const columns = helper.columns([
  helper.accessor('createdAt', {
    header: 'Created',
    cell: (info) => (
      <Link className={styles.rowLink} href={`/dashboard/transactions/${info.row.original.id}`}>
        {formatDateTime(info.getValue())}
        <span className={`${styles.mono} ${styles.muted}`} style={{ display: 'block', fontWeight: 400 }}>
          {info.row.original.id}
        </span>
      </Link>
    ),
  }),
  helper.accessor('status', {
    header: 'Status',
    cell: (info) => (
      <span className={styles.linkCell}>
        <StatusBadge status={info.getValue()} />
        {info.row.original.stale ? <StatusBadge status="stale" label="Stale" /> : null}
      </span>
    ),
  }),
  helper.accessor('provider', { header: 'Provider' }),
  helper.display({
    id: 'route',
    header: 'Route',
    meta: { wrap: true },
    cell: ({ row }) => (
      <span>
        {row.original.srcAmount} {row.original.srcSymbol}{' '}
        <span className={styles.muted}>
          ({row.original.srcChain}) → {row.original.dstSymbol} ({row.original.dstChain})
        </span>
      </span>
    ),
  }),
  helper.accessor('amountUsd', {
    header: 'USD',
    cell: (info) => formatUsd(info.getValue()),
    meta: { numeric: true },
  }),
  helper.display({
    id: 'hash',
    header: 'Latest hash',
    cell: ({ row }) => <Hash value={row.original.outboundHash || row.original.hash || null} />,
  }),
  helper.accessor('walletAddress', {
    header: 'Wallet',
    enableSorting: false,
    cell: (info) => <Hash value={info.getValue()} />,
  }),
  helper.accessor('referralCode', {
    header: 'Referral',
    enableSorting: false,
    cell: (info) => info.getValue() ?? <span className={styles.muted}>—</span>,
  }),
]);

const SORTABLE = new Set(['createdAt', 'status', 'provider', 'amountUsd']);

export function TransactionsView() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const input = searchInputFromParams((key) => params.get(key));
  const result = useQuery(trpc.transactions.search.queryOptions(input, { placeholderData: keepPreviousData }));

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
  const pagination: PaginationState = { pageIndex: (input.page ?? 1) - 1, pageSize: PER_PAGE };

  const table = useTable({
    features,
    columns,
    data: result.data?.items ?? noRows,
    rowCount: result.data?.total ?? 0,
    state: { sorting, pagination },
    manualSorting: true,
    manualPagination: true,
    enableSortingRemoval: false,
    onSortingChange: (updater: Updater<SortingState>) => {
      const [first] = functionalUpdate(updater, sorting);
      navigate({ sort: first ? `${first.id}.${first.desc ? 'desc' : 'asc'}` : null, page: null });
    },
    onPaginationChange: (updater: Updater<PaginationState>) => {
      const next = functionalUpdate(updater, pagination);
      navigate({ page: next.pageIndex > 0 ? String(next.pageIndex + 1) : null });
    },
  });

  const total = result.data?.total ?? 0;
  const page = input.page ?? 1;
  const lastPage = Math.max(1, Math.ceil(total / PER_PAGE));

  return (
    <div className={styles.stack}>
      <Filters
        key={params.toString()}
        values={params}
        onApply={(values) => navigate({ ...values, page: null })}
        onReset={() => router.replace(pathname, { scroll: false })}
      />
      <div className={styles.tableWrap}>
        {result.isPending ? (
          <div style={{ padding: 16 }}>
            <LoadingState label="Loading transactions…" />
          </div>
        ) : result.isError ? (
          <ErrorState message={describeError(result.error).message} onRetry={() => result.refetch()} />
        ) : total === 0 ? (
          <EmptyState title="No transactions match">
            Check the id or hash, or clear some filters. Hex hashes match in any case, with or without 0x.
          </EmptyState>
        ) : (
          <table className={styles.table} aria-busy={result.isFetching}>
            <caption className={styles.srOnly}>
              Transactions, page {page} of {lastPage}, {total} in total
            </caption>
            <thead>
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => {
                    const sortable = SORTABLE.has(header.column.id);
                    const sorted = header.column.getIsSorted();
                    const numeric = (header.column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric;
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        className={numeric ? styles.num : undefined}
                        aria-sort={sorted ? (sorted === 'asc' ? 'ascending' : 'descending') : undefined}
                      >
                        {sortable ? (
                          <button
                            type="button"
                            className={styles.sortButton}
                            onClick={header.column.getToggleSortingHandler()}
                          >
                            <table.FlexRender header={header} />
                            <span aria-hidden="true">{sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}</span>
                          </button>
                        ) : (
                          <table.FlexRender header={header} />
                        )}
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody>
              {table.getRowModel().rows.map((row) => (
                <tr key={row.id}>
                  {row.getAllCells().map((cell) => {
                    const meta = cell.column.columnDef.meta as { numeric?: boolean; wrap?: boolean } | undefined;
                    return (
                      <td key={cell.id} className={meta?.numeric ? styles.num : meta?.wrap ? styles.wrap : undefined}>
                        <table.FlexRender cell={cell} />
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {total > 0 ? (
        <div className={styles.pager}>
          <span>
            {total.toLocaleString('en-US')} {total === 1 ? 'transaction' : 'transactions'} · page {page} of {lastPage}
          </span>
          <div className={styles.pagerButtons}>
            <button type="button" className={styles.button} disabled={page <= 1} onClick={() => table.previousPage()}>
              Previous
            </button>
            <button
              type="button"
              className={styles.button}
              disabled={page >= lastPage}
              onClick={() => table.nextPage()}
            >
              Next
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}

function Filters({
  values,
  onApply,
  onReset,
}: {
  values: URLSearchParams;
  onApply: (values: Record<string, string | null>) => void;
  onReset: () => void;
}) {
  const id = useId();
  const field = (name: string) => `${id}-${name}`;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => String(form.get(name) ?? '').trim() || null;
    onApply({
      q: value('q'),
      status: value('status'),
      provider: value('provider'),
      chain: value('chain'),
      from: value('from'),
      to: value('to'),
      ref: value('ref'),
      stale: value('stale'),
    });
  };
  return (
    <search>
      <form className={styles.panel} onSubmit={submit} aria-label="Search transactions">
        <div className={styles.toolbar}>
          <div className={`${styles.field} ${styles.fieldGrow}`}>
            <label className={styles.label} htmlFor={field('q')}>
              Transaction id, lock id, hash or wallet
            </label>
            <input
              id={field('q')}
              name="q"
              type="search"
              className={`${styles.input} ${styles.mono}`}
              defaultValue={values.get('q') ?? ''}
              placeholder="tx_…, lk_…, 0x…, bc1…"
              autoComplete="off"
              spellCheck={false}
            />
          </div>
          <button type="submit" className={`${styles.button} ${styles.buttonPrimary}`}>
            Search
          </button>
          <button type="button" className={styles.button} onClick={onReset}>
            Reset
          </button>
        </div>
        <div className={styles.formRow}>
          <div className={styles.field}>
            <label className={styles.label} htmlFor={field('status')}>
              Status
            </label>
            <select
              id={field('status')}
              name="status"
              className={styles.select}
              defaultValue={values.get('status') ?? ''}
            >
              <option value="">Any</option>
              {TX_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </div>
          <div className={styles.field}>
            <label className={styles.label} htmlFor={field('provider')}>
              Provider
            </label>
            <select
              id={field('provider')}
              name="provider"
              className={styles.select}
              defaultValue={values.get('provider') ?? ''}
            >
              <option value="">Any</option>
              {PROVIDER_KEYS.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </div>
          <div className={styles.field}>
            <label className={styles.label} htmlFor={field('chain')}>
              Chain
            </label>
            <input
              id={field('chain')}
              name="chain"
              className={`${styles.input} ${styles.inputNarrow}`}
              defaultValue={values.get('chain') ?? ''}
              placeholder="ethereum"
            />
          </div>
          <div className={styles.field}>
            <label className={styles.label} htmlFor={field('from')}>
              From (UTC)
            </label>
            <input
              id={field('from')}
              name="from"
              type="date"
              className={styles.input}
              defaultValue={values.get('from') ?? ''}
            />
          </div>
          <div className={styles.field}>
            <label className={styles.label} htmlFor={field('to')}>
              To (UTC)
            </label>
            <input
              id={field('to')}
              name="to"
              type="date"
              className={styles.input}
              defaultValue={values.get('to') ?? ''}
            />
          </div>
          <div className={styles.field}>
            <label className={styles.label} htmlFor={field('ref')}>
              Referral code
            </label>
            <input
              id={field('ref')}
              name="ref"
              className={`${styles.input} ${styles.inputNarrow}`}
              defaultValue={values.get('ref') ?? ''}
            />
          </div>
          <div className={styles.field}>
            <label className={styles.label} htmlFor={field('stale')}>
              Stale
            </label>
            <select id={field('stale')} name="stale" className={styles.select} defaultValue={values.get('stale') ?? ''}>
              <option value="">Any</option>
              <option value="yes">Stale only</option>
              <option value="no">Not stale</option>
            </select>
          </div>
        </div>
      </form>
    </search>
  );
}
