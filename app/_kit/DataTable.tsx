'use client';

import {
  type ColumnDef,
  createColumnHelper,
  createSortedRowModel,
  functionalUpdate,
  metaHelper,
  type PaginationState,
  type RowData,
  rowPaginationFeature,
  rowSortingFeature,
  type SortingState,
  sortFn_alphanumeric,
  sortFn_basic,
  sortFn_datetime,
  sortFn_text,
  tableFeatures,
  type Updater,
  useTable,
} from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { Button } from './Button';
import { Panel } from './Panel';
import { EmptyState } from './states';
import { cell, Table } from './Table';
import styles from './table.module.css';

export type { SortingState } from '@tanstack/react-table';

/**
 * How a column's cells look: figures right-aligned, long text wrapped, short text that may break at
 * its spaces when the table is short of room (a date and its time), a code without spaces that may
 * break between any characters (a referral code), or the row's header cell.
 */
interface ColumnLook {
  numeric?: boolean;
  wrap?: boolean;
  breakable?: boolean;
  anywhere?: boolean;
  rowHeader?: boolean;
}

const features = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, basic: sortFn_basic, datetime: sortFn_datetime, text: sortFn_text },
  rowPaginationFeature,
  columnMeta: metaHelper<ColumnLook>(),
});

type Features = typeof features;
export type Columns<Row extends RowData> = ColumnDef<Features, Row, any>[];

/** The column helper of a DataTable of `Row`s: `const col = columnsOf<Row>(); col.columns([col.accessor(…)])`. */
export const columnsOf = <Row extends RowData>() => createColumnHelper<Features, Row>();

/** Column options for figures: right-aligned, shown through `format`. */
export const numeric = <Value,>(format: (value: Value) => ReactNode) => ({
  meta: { numeric: true },
  cell: ({ getValue }: { getValue: () => Value }) => format(getValue()),
});

/** Sorting and paging done by the server: the table shows the rows it is given and reports what the reader asks for. */
export interface ServerPaging {
  sorting: SortingState;
  onSortingChange: (sorting: SortingState) => void;
  page: number;
  pageSize: number;
  total: number;
  /** More rows than `total` match: shown as "10,000+". */
  totalCapped?: boolean;
  onPageChange: (page: number) => void;
  /** Names the rows in the pager line: `['transaction', 'transactions']`. */
  noun: [one: string, many: string];
}

const noSorting: SortingState = [];

/**
 * One table for every list: sortable headers (in the browser, or by the server with `server`), an
 * empty state instead of an empty table, sideways scrolling on narrow screens.
 */
export function DataTable<Row extends RowData>({
  columns,
  data,
  caption,
  empty,
  getRowId,
  server,
  busy,
}: {
  columns: Columns<Row>;
  data: Row[];
  caption: string;
  /** Shown instead of an empty table; a string is the empty state's title. */
  empty?: ReactNode;
  getRowId?: (row: Row) => string;
  server?: ServerPaging;
  busy?: boolean;
}) {
  const pagination: PaginationState = { pageIndex: (server?.page ?? 1) - 1, pageSize: server?.pageSize ?? 1 };
  const table = useTable({
    features,
    columns,
    data,
    getRowId: getRowId ? (row) => getRowId(row) : undefined,
    ...(server
      ? {
          state: { sorting: server.sorting, pagination },
          rowCount: server.total,
          manualSorting: true,
          manualPagination: true,
          enableSortingRemoval: false,
          onSortingChange: (updater: Updater<SortingState>) =>
            server.onSortingChange(functionalUpdate(updater, server.sorting ?? noSorting)),
          onPaginationChange: (updater: Updater<PaginationState>) =>
            server.onPageChange(functionalUpdate(updater, pagination).pageIndex + 1),
        }
      : {}),
  });

  if (data.length === 0 && empty) return typeof empty === 'string' ? <EmptyState title={empty} /> : empty;

  return (
    <>
      <Table caption={caption} bleed busy={busy}>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className={header.column.columnDef.meta?.numeric ? cell.num : undefined}
                    aria-sort={sorted ? (sorted === 'asc' ? 'ascending' : 'descending') : undefined}
                  >
                    {header.column.getCanSort() ? (
                      <button
                        type="button"
                        className={styles.sortButton}
                        onClick={header.column.getToggleSortingHandler()}
                      >
                        <table.FlexRender header={header} />
                        <span className={styles.sortIcon} aria-hidden="true">
                          {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                        </span>
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
              {row.getAllCells().map((item) => {
                const look = item.column.columnDef.meta;
                const className = look?.numeric
                  ? cell.num
                  : look?.wrap
                    ? cell.wrap
                    : look?.breakable
                      ? cell.breakable
                      : look?.anywhere
                        ? cell.anywhere
                        : undefined;
                return look?.rowHeader ? (
                  <th key={item.id} scope="row" className={className}>
                    <table.FlexRender cell={item} />
                  </th>
                ) : (
                  <td key={item.id} className={className}>
                    <table.FlexRender cell={item} />
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </Table>
      {server ? <Pager table={table} server={server} /> : null}
    </>
  );
}

function Pager({
  table,
  server,
}: {
  table: { previousPage: () => void; nextPage: () => void; getPageCount: () => number };
  server: ServerPaging;
}) {
  const lastPage = Math.max(1, table.getPageCount());
  const [one, many] = server.noun;
  return (
    <div className={styles.pager}>
      <span>
        {server.total.toLocaleString('en-US')}
        {server.totalCapped ? '+' : ''} {server.total === 1 && !server.totalCapped ? one : many} · page {server.page} of{' '}
        {lastPage}
        {server.totalCapped ? '+' : ''}
      </span>
      <div className={styles.pagerButtons}>
        <Button disabled={server.page <= 1} onClick={() => table.previousPage()}>
          Previous
        </Button>
        <Button disabled={server.page >= lastPage} onClick={() => table.nextPage()}>
          Next
        </Button>
      </div>
    </div>
  );
}

/** A titled panel holding one DataTable, the title doubling as the table's caption. */
export function TablePanel<Row extends RowData>({
  title,
  note,
  ...table
}: { title: string; note?: ReactNode } & Omit<Parameters<typeof DataTable<Row>>[0], 'caption'> & {
    caption?: string;
  }) {
  return (
    <Panel title={title} note={note}>
      <DataTable caption={title} {...table} />
    </Panel>
  );
}
