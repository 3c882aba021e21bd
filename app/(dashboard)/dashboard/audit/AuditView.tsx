'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '@/app/_kit/Button';
import { columnsOf, numeric, TablePanel } from '@/app/_kit/DataTable';
import { controlClass, Field } from '@/app/_kit/Field';
import { formatCount, formatDateTime } from '@/app/_kit/format';
import layout from '@/app/_kit/layout.module.css';
import { Panel } from '@/app/_kit/Panel';
import { EmptyState } from '@/app/_kit/states';
import text from '@/app/_kit/text.module.css';
import { AUDIT_ACTION_NAMES, AUDIT_TARGET_TYPES } from '@/server/audit/catalog';
import { FAILED_SIGN_IN_WINDOWS } from '@/server/audit/schemas';
import { CsvExportStatus, ExportCsvButton, useCsvExport } from '../../_components/CsvExport';
import { isPaged, KeysetPagerButtons, useKeysetPages } from '../../_components/KeysetPager';
import { QueryState } from '../../_components/states';
import { type RouterOutputs, useTRPC } from '../../_trpc/client';
import forms from '../forms.module.css';
import styles from './audit.module.css';

type AuditEvent = RouterOutputs['audit']['list']['items'][number];
type Failed = RouterOutputs['audit']['failedSignIns']['byAddress'][number];

export interface AuditFilters {
  actor?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: string;
  to?: string;
}

/** A change as `field: before → after`, one line a field; a snapshot as `field: value`. */
function describeChange(before: Record<string, unknown> | null, after: Record<string, unknown> | null) {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const show = (value: unknown) =>
    value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);
  return keys.map((key) => {
    const was = before?.[key];
    const now = after?.[key];
    if (before && after && JSON.stringify(was) === JSON.stringify(now)) return `${key}: ${show(now)}`;
    if (before && after) return `${key}: ${show(was)} → ${show(now)}`;
    return `${key}: ${show(before ? was : now)}`;
  });
}

const event = columnsOf<AuditEvent>();
const eventColumns = event.columns([
  event.accessor('at', { header: 'When (UTC)', cell: (c) => formatDateTime(c.getValue(), '') }),
  event.display({
    id: 'actor',
    header: 'Who',
    meta: { wrap: true },
    cell: ({ row: { original: e } }) => (
      <>
        {e.actorEmail ?? <span className={text.muted}>unknown</span>}
        {e.actorRole ? <span className={text.muted}> · {e.actorRole}</span> : null}
      </>
    ),
  }),
  event.accessor('action', { header: 'Action', cell: (c) => <span className={text.mono}>{c.getValue()}</span> }),
  event.display({
    id: 'target',
    header: 'Target',
    meta: { wrap: true },
    cell: ({ row: { original: e } }) =>
      e.targetId ? (
        <span className={styles.breakable}>
          <span className={text.muted}>{e.targetType} </span>
          <span className={text.mono}>{e.targetId}</span>
        </span>
      ) : (
        <span className={text.muted}>—</span>
      ),
  }),
  event.display({
    id: 'change',
    header: 'Change',
    meta: { wrap: true },
    cell: ({ row: { original: e } }) => (
      <span className={styles.breakable}>
        {describeChange(e.before, e.after).map((line) => (
          <span key={line} className={styles.line}>
            {line}
          </span>
        ))}
      </span>
    ),
  }),
  event.display({
    id: 'from',
    header: 'From',
    meta: { wrap: true },
    cell: ({ row: { original: e } }) => (
      <span className={styles.breakable}>
        <span className={text.mono}>{e.clientAddress ?? '—'}</span>
        {e.requestId ? <span className={`${text.muted} ${styles.line}`}>{e.requestId}</span> : null}
      </span>
    ),
  }),
]);

const failed = columnsOf<Failed>();
const failedColumns = (header: string) =>
  failed.columns([
    failed.accessor('key', {
      header,
      meta: { rowHeader: true, wrap: true },
      cell: (c) => <span className={`${text.mono} ${styles.breakable}`}>{c.getValue() ?? 'none given'}</span>,
    }),
    failed.accessor('attempts', { header: 'Failures', ...numeric(formatCount) }),
    failed.accessor('last', { header: 'Last (UTC)', cell: (c) => formatDateTime(c.getValue(), '') }),
  ]);
const byAddressColumns = failedColumns('Address');
const byAccountColumns = failedColumns('Account tried');

/** A `datetime-local` value is the reader's local time; the server filters in UTC. */
const toInstant = (local: string | undefined) => (local ? new Date(local).toISOString() : undefined);

export function queryOf(filters: AuditFilters) {
  return Object.fromEntries(
    Object.entries({ ...filters, from: toInstant(filters.from), to: toInstant(filters.to) }).filter(
      ([, value]) => value,
    ),
  ) as AuditFilters;
}

export function AuditView() {
  const trpc = useTRPC();
  const [filters, setFilters] = useState<AuditFilters>({});
  const pager = useKeysetPages();
  const { cursor } = pager;
  const input = { ...queryOf(filters), ...(cursor && { cursor }) };
  const list = useQuery(trpc.audit.list.queryOptions(input, { placeholderData: keepPreviousData }));

  const apply = (next: AuditFilters) => {
    setFilters(next);
    pager.reset();
  };

  return (
    <div className={layout.stack}>
      <FailedSignIns onPick={(actor) => apply({ action: 'auth.sign_in_failed', actor })} />
      <FilterForm value={filters} onApply={apply} />
      <QueryState query={list} loading="Loading the audit log…">
        {(data) => (
          <>
            <TablePanel
              title="Events"
              note={isPaged(pager, data.nextCursor) ? `page ${pager.page}` : undefined}
              columns={eventColumns}
              data={data.items}
              getRowId={(row) => row.id}
              empty={<EmptyState title="No events match">Change or clear the filters.</EmptyState>}
            />
            <KeysetPagerButtons pager={pager} nextCursor={data.nextCursor} noun="events" />
          </>
        )}
      </QueryState>
    </div>
  );
}

function FilterForm({ value, onApply }: { value: AuditFilters; onApply: (filters: AuditFilters) => void }) {
  const csv = useCsvExport();
  const submit = (formEvent: FormEvent<HTMLFormElement>) => {
    formEvent.preventDefault();
    const form = new FormData(formEvent.currentTarget);
    const field = (name: keyof AuditFilters) => String(form.get(name) ?? '').trim() || undefined;
    onApply({
      actor: field('actor'),
      action: field('action'),
      targetType: field('targetType'),
      targetId: field('targetId'),
      from: field('from'),
      to: field('to'),
    });
  };
  // Keyed on the applied filters, so a filter set from elsewhere (a failed sign-in picked) shows in the form.
  return (
    <Panel title="Filter">
      <form key={JSON.stringify(value)} onSubmit={submit} aria-label="Filter the audit log">
        <div className={forms.row}>
          <Field label="Who (email or user id)">
            <input name="actor" className={controlClass()} defaultValue={value.actor} autoComplete="off" />
          </Field>
          <Field label="Action">
            <select name="action" className={controlClass()} defaultValue={value.action ?? ''}>
              <option value="">Any action</option>
              {AUDIT_ACTION_NAMES.map((action) => (
                <option key={action} value={action}>
                  {action}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Target">
            <select name="targetType" className={controlClass()} defaultValue={value.targetType ?? ''}>
              <option value="">Any kind</option>
              {AUDIT_TARGET_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Target id">
            <input name="targetId" className={controlClass({ mono: true })} defaultValue={value.targetId} />
          </Field>
        </div>
        <div className={forms.row}>
          <Field label="From (your time)">
            <input name="from" type="datetime-local" className={controlClass()} defaultValue={value.from} />
          </Field>
          <Field label="Until (your time)">
            <input name="to" type="datetime-local" className={controlClass()} defaultValue={value.to} />
          </Field>
          <Button type="submit" variant="primary">
            Apply
          </Button>
          <Button type="button" onClick={() => onApply({})}>
            Clear
          </Button>
          <ExportCsvButton
            control={csv}
            size="medium"
            href={`/api/exports/audit?input=${encodeURIComponent(JSON.stringify(queryOf(value)))}`}
          />
        </div>
        <p className={forms.help}>The export holds every event the applied filters match, not only this page.</p>
        <CsvExportStatus control={csv} />
      </form>
    </Panel>
  );
}

function FailedSignIns({ onPick }: { onPick: (actor: string | undefined) => void }) {
  const trpc = useTRPC();
  const [span, setSpan] = useState<(typeof FAILED_SIGN_IN_WINDOWS)[number]>('24h');
  const query = useQuery(
    trpc.audit.failedSignIns.queryOptions({ window: span }, { placeholderData: keepPreviousData }),
  );
  return (
    <Panel title="Failed sign-ins" note="by address and by account tried">
      <div className={layout.stack}>
        <div className={forms.row}>
          <Field label="In the last">
            <select
              className={controlClass({ fit: true })}
              value={span}
              onChange={(e) => setSpan(e.target.value as typeof span)}
            >
              {FAILED_SIGN_IN_WINDOWS.map((w) => (
                <option key={w} value={w}>
                  {w}
                </option>
              ))}
            </select>
          </Field>
          <Button type="button" onClick={() => onPick(undefined)}>
            List them below
          </Button>
        </div>
        <QueryState query={query} loading="Counting failed sign-ins…">
          {(data) =>
            data.total === 0 ? (
              <p className={text.muted}>No failed sign-ins in the last {data.window}.</p>
            ) : (
              <>
                <p>
                  {formatCount(data.total)} failed sign-in{data.total === 1 ? '' : 's'} in the last {data.window}.
                </p>
                <div className={layout.grid2}>
                  <TablePanel title="By address" columns={byAddressColumns} data={data.byAddress} empty="None" />
                  <TablePanel title="By account tried" columns={byAccountColumns} data={data.byAccount} empty="None" />
                </div>
              </>
            )
          }
        </QueryState>
      </div>
    </Panel>
  );
}
