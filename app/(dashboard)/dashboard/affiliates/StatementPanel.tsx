'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { columnsOf, DataTable, numeric } from '@/app/_kit/DataTable';
import { controlClass, Field } from '@/app/_kit/Field';
import { formatCount, formatUsd } from '@/app/_kit/format';
import { Panel } from '@/app/_kit/Panel';
import text from '@/app/_kit/text.module.css';
import { CsvExportStatus, ExportCsvButton, useCsvExport } from '../../_components/CsvExport';
import { QueryState } from '../../_components/states';
import { type RouterOutputs, useTRPC } from '../../_trpc/client';
import forms from '../forms.module.css';
import { monthPeriod, statementHref, thisMonth } from './statement-period';

type Line = RouterOutputs['affiliates']['statement']['codes'][number];

const line = columnsOf<Line & { owner: string }>();
// Unsorted: the total stays the last row.
const unsorted = { enableSorting: false } as const;
const columns = (isAdmin: boolean) =>
  line.columns([
    line.accessor('code', {
      ...unsorted,
      header: 'Code',
      meta: { rowHeader: true, wrap: true },
      cell: (c) => <span className={text.mono}>{c.getValue()}</span>,
    }),
    ...(isAdmin ? [line.accessor('owner', { ...unsorted, header: 'Owner', meta: { wrap: true } })] : []),
    line.accessor('swaps', { ...unsorted, header: 'Swaps', ...numeric(formatCount) }),
    line.accessor('succeeded', { ...unsorted, header: 'Succeeded', ...numeric(formatCount) }),
    line.accessor('finished', { ...unsorted, header: 'Finished', ...numeric(formatCount) }),
    line.accessor('volumeUsd', { ...unsorted, header: 'Volume', ...numeric(formatUsd) }),
    line.accessor('feesUsd', { ...unsorted, header: 'Provider fees', ...numeric(formatUsd) }),
  ]);

/** A month's statement of the codes in view (an admin's pick of affiliate, or all), to read and to download. */
export function StatementPanel({ ownerId, isAdmin }: { ownerId: string; isAdmin: boolean }) {
  const trpc = useTRPC();
  const [month, setMonth] = useState(thisMonth);
  const input = { ...monthPeriod(month), ...(ownerId && { ownerId }) };
  const statement = useQuery(trpc.affiliates.statement.queryOptions(input, { placeholderData: keepPreviousData }));
  const csv = useCsvExport();

  return (
    <Panel title="Statement" note="by creation time, UTC">
      <div className={forms.row}>
        <Field label="Month">
          <input
            type="month"
            className={controlClass()}
            value={month}
            max={thisMonth()}
            required
            onChange={(event) => event.target.value && setMonth(event.target.value)}
          />
        </Field>
        <ExportCsvButton control={csv} href={statementHref('affiliate-statement', input)} label="Download statement" />
      </div>
      <p className={forms.help}>
        A swap counts in the month it was created, as it stands now: one that settles later changes its month’s figures.
        Volume and fees are of successful swaps. The download lists each code’s figures with its swaps beneath.
      </p>
      <CsvExportStatus control={csv} />
      <QueryState query={statement} loading="Loading the statement…" boxed={false}>
        {(data) => (
          <DataTable
            caption={`Statement for ${input.from} to ${input.to}`}
            columns={columns(isAdmin)}
            data={[
              ...data.codes.map((c) => ({ ...c, owner: c.ownerEmail ?? c.ownerId })),
              { ...data.totals, code: 'Total', owner: '', ownerId: '', ownerEmail: null },
            ]}
            getRowId={(row) => `${row.ownerId}:${row.code}`}
          />
        )}
      </QueryState>
    </Panel>
  );
}
