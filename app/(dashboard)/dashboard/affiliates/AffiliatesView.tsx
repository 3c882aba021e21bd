'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { Button } from '@/app/_kit/Button';
import { CopyButton } from '@/app/_kit/CopyButton';
import { columnsOf, numeric, TablePanel } from '@/app/_kit/DataTable';
import { controlClass, Field } from '@/app/_kit/Field';
import {
  formatCount,
  formatCountOf,
  formatDateTime,
  formatPercent,
  formatUsd,
  formatUsdCompact,
} from '@/app/_kit/format';
import layout from '@/app/_kit/layout.module.css';
import { FormStatus } from '@/app/_kit/Notice';
import { Panel } from '@/app/_kit/Panel';
import { StatusBadge } from '@/app/_kit/StatusBadge';
import { EmptyState } from '@/app/_kit/states';
import text from '@/app/_kit/text.module.css';
import { REFERRAL_CODE_PATTERN } from '@/server/schemas/affiliates';
import type { Range } from '@/server/schemas/ranges';
import { providerCell, SwapRoute } from '../../_components/cells';
import { CHART, TimeSeriesChart } from '../../_components/charts';
import { isPaged, KeysetPagerButtons, useKeysetPages } from '../../_components/KeysetPager';
import { Kpi, KpiGrid } from '../../_components/Kpi';
import { describeError } from '../../_components/query-error';
import { RangePicker } from '../../_components/RangePicker';
import { QueryState } from '../../_components/states';
import { type RouterOutputs, useTRPC } from '../../_trpc/client';
import forms from '../forms.module.css';
import { StatementPanel } from './StatementPanel';

type Overview = RouterOutputs['affiliates']['overview'];

const referralPath = (code: string) => `/?ref=${encodeURIComponent(code)}`;
const absolute = (path: string) => new URL(path, window.location.origin).toString();

const code = columnsOf<Overview['codes'][number]>();
const codeColumns = (isAdmin: boolean) =>
  code.columns([
    code.accessor('code', {
      header: 'Code',
      meta: { rowHeader: true, wrap: true },
      cell: ({ row: { original: c } }) => (
        <>
          <span className={text.mono}>{c.code}</span>
          {c.label ? <span className={text.muted}> · {c.label}</span> : null}
          {c.active ? null : (
            <>
              {' '}
              <StatusBadge status="expired" label="inactive" />
            </>
          )}
        </>
      ),
    }),
    code.display({
      id: 'link',
      header: 'Link',
      meta: { wrap: true },
      cell: ({ row: { original: c } }) => (
        <span className={layout.inline}>
          <Link className={text.mono} href={referralPath(c.code)}>
            {referralPath(c.code)}
          </Link>
          <CopyButton value={referralPath(c.code)} label={`Copy link: ${referralPath(c.code)}`} resolve={absolute}>
            Copy link
          </CopyButton>
        </span>
      ),
    }),
    ...(isAdmin
      ? [code.accessor((c) => c.ownerEmail ?? c.ownerId, { id: 'owner', header: 'Owner', meta: { wrap: true } })]
      : []),
    code.accessor('swaps', { header: 'Swaps', ...numeric(formatCount) }),
    code.accessor('volumeUsd', { header: 'Volume', ...numeric(formatUsd) }),
    code.accessor('feesUsd', { header: 'Provider fees', ...numeric(formatUsd) }),
    code.accessor('successRate', { header: 'Success', ...numeric(formatPercent) }),
  ]);

const referred = columnsOf<Overview['recent'][number]>();
const referredColumns = referred.columns([
  referred.accessor('createdAt', { header: 'Created', cell: (c) => formatDateTime(c.getValue()) }),
  // As on the Transactions page: a code may break anywhere and a route at its spaces when the table is short
  // of room (the demo year's longest route held this table 3 px past its panel at 1280 px).
  referred.accessor('referralCode', {
    header: 'Code',
    meta: { anywhere: true },
    cell: (c) => <span className={text.mono}>{c.getValue()}</span>,
  }),
  referred.accessor('status', { header: 'Status', cell: (c) => <StatusBadge status={c.getValue()} /> }),
  referred.display({
    id: 'swap',
    header: 'Swap',
    meta: { breakable: true },
    cell: ({ row: { original: tx } }) => <SwapRoute {...tx} />,
  }),
  referred.accessor('amountUsd', { header: 'USD', ...numeric(formatUsd) }),
  referred.accessor('provider', { header: 'Provider', ...providerCell }),
]);

/** Switchyard adds no referral fee of its own to any route, so a referral brings its affiliate nothing yet. */
const NO_REFERRAL_FEE = 'No referral fee is configured: Switchyard charges none, so referrals earn no commission yet.';

export function AffiliatesView({ isAdmin }: { isAdmin: boolean }) {
  const trpc = useTRPC();
  const [range, setRange] = useState<Range>('30d');
  const [ownerId, setOwnerId] = useState<string>('');
  // The code list comes a page at a time, newest first.
  const codePages = useKeysetPages();
  const codesCursor = codePages.cursor;
  const input = { range, ...(ownerId && { ownerId }), ...(codesCursor && { codesCursor }) };
  const overview = useQuery(trpc.affiliates.overview.queryOptions(input, { placeholderData: keepPreviousData }));
  const affiliates = useQuery({ ...trpc.affiliates.list.queryOptions(), enabled: isAdmin });
  const columns = useMemo(() => codeColumns(isAdmin), [isAdmin]);

  return (
    <div className={layout.stack}>
      <div className={forms.row}>
        <RangePicker
          value={range}
          onChange={(next) => {
            setRange(next);
            codePages.reset();
          }}
        />
        {isAdmin ? (
          <Field label="Affiliate">
            <select
              className={controlClass()}
              value={ownerId}
              onChange={(event) => {
                setOwnerId(event.target.value);
                codePages.reset();
              }}
            >
              <option value="">All affiliates</option>
              {(affiliates.data ?? []).map((a) => (
                <option key={a.id} value={a.id}>
                  {a.email} ({formatCountOf(a.codes, 'code')})
                </option>
              ))}
            </select>
          </Field>
        ) : null}
      </div>

      <CreateCode />

      <QueryState query={overview} loading="Loading referral stats…">
        {(data) => (
          <>
            <KpiGrid label="Totals">
              <Kpi label="Referred swaps" value={formatCount(data.totals.swaps)} />
              <Kpi label="Settled volume" value={formatUsd(data.totals.volumeUsd)} hint="successful swaps" />
              <Kpi
                label="Provider fees paid"
                value={formatUsd(data.totals.feesUsd)}
                hint="by referred users to the providers, on successful swaps"
              />
              <Kpi label="Commission earned" value={formatUsd(0)} hint={NO_REFERRAL_FEE} />
              <Kpi label="Success rate" value={formatPercent(data.totals.successRate)} hint="of finished swaps" />
            </KpiGrid>

            <Panel title="Referred swaps over time" note={`per ${data.bucket}, UTC`}>
              {data.totals.swaps === 0 ? (
                <EmptyState title="No referred swaps in this range">
                  Share a link below; swaps made through it show up here.
                </EmptyState>
              ) : (
                <div className={layout.grid2}>
                  {(
                    [
                      ['swaps', 'Swaps', CHART.blue, `${data.totals.swaps} referred swaps in this range.`],
                      [
                        'volumeUsd',
                        'Settled volume (USD)',
                        CHART.green,
                        `${formatUsd(data.totals.volumeUsd)} settled volume in this range.`,
                      ],
                      [
                        'feesUsd',
                        'Provider fees paid (USD)',
                        CHART.amber,
                        `${formatUsd(data.totals.feesUsd)} provider fees paid by referred users in this range.`,
                      ],
                    ] as const
                  ).map(([key, label, colour, summary]) => (
                    <TimeSeriesChart
                      key={key}
                      data={data.series}
                      bucket={data.bucket}
                      kind="bar"
                      series={[{ key, label, colour }]}
                      valueFormatter={key === 'swaps' ? undefined : formatUsdCompact}
                      summary={summary}
                    />
                  ))}
                </div>
              )}
            </Panel>

            <TablePanel
              title="Referral codes"
              note={`${formatCountOf(data.totals.codes, 'code')}${isPaged(codePages, data.codesNextCursor) ? `, ${data.codes.length} shown` : ''}`}
              columns={columns}
              data={data.codes}
              empty={<EmptyState title="No referral codes yet">Create one above to get a link to share.</EmptyState>}
            />
            <KeysetPagerButtons pager={codePages} nextCursor={data.codesNextCursor} noun="codes" />
            <StatementPanel ownerId={ownerId} isAdmin={isAdmin} />
            <TablePanel
              title="Recent referred swaps"
              note="latest 20"
              columns={referredColumns}
              data={data.recent}
              empty="No referred swaps yet"
            />
          </>
        )}
      </QueryState>
    </div>
  );
}

function CreateCode() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const ids = { help: useId(), status: useId() };
  const [localError, setLocalError] = useState<string | null>(null);
  const create = useMutation(
    trpc.affiliates.createCode.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.affiliates.pathKey() }),
    }),
  );

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const newCode = String(form.get('code') ?? '').trim();
    const label = String(form.get('label') ?? '').trim();
    if (!REFERRAL_CODE_PATTERN.test(newCode)) {
      setLocalError('Use 3 to 32 characters: letters, digits, _ or -.');
      return;
    }
    setLocalError(null);
    create.mutate(label ? { code: newCode, label } : { code: newCode }, { onSuccess: () => formElement.reset() });
  };

  const error = localError ?? (create.isError ? describeError(create.error).message : null);
  return (
    <Panel title="New referral link">
      <form onSubmit={submit} noValidate>
        <div className={forms.row}>
          <Field label="Code" describedBy={error ? `${ids.help} ${ids.status}` : ids.help} invalid={Boolean(error)}>
            <input
              name="code"
              className={controlClass({ mono: true })}
              required
              minLength={3}
              maxLength={32}
              pattern="[A-Za-z0-9_\-]{3,32}"
              autoComplete="off"
              spellCheck={false}
            />
          </Field>
          <Field label="Name (optional)" grow>
            <input name="label" className={controlClass()} maxLength={64} placeholder="e.g. Newsletter, March" />
          </Field>
          <Button type="submit" variant="primary" busy={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create link'}
          </Button>
        </div>
        <p id={ids.help} className={forms.help}>
          3–32 letters, digits, _ or -. Codes are unique across Switchyard, ignoring case.
        </p>
        <div aria-live="polite">
          {error ? (
            <FormStatus tone="error" id={ids.status} role="alert">
              {error}
            </FormStatus>
          ) : create.isSuccess ? (
            <FormStatus tone="success" id={ids.status}>
              Created <span className={text.mono}>{create.data.code}</span>: share{' '}
              <span className={text.mono}>{referralPath(create.data.code)}</span>
            </FormStatus>
          ) : null}
        </div>
      </form>
    </Panel>
  );
}
