'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { type FormEvent, useId, useState } from 'react';
import { type Range, REFERRAL_CODE_PATTERN } from '@/server/dashboard/schemas';
import { CopyButton } from '../../_components/CopyButton';
import { TimeSeriesChart } from '../../_components/charts';
import styles from '../../_components/dash.module.css';
import { formatCount, formatDateTime, formatPercent, formatUsd, formatUsdCompact } from '../../_components/format';
import { Kpi, Panel } from '../../_components/layout-parts';
import { describeError } from '../../_components/query-error';
import { RangePicker } from '../../_components/RangePicker';
import { StatusBadge } from '../../_components/StatusBadge';
import { EmptyState, QueryPanel } from '../../_components/states';
import { useTRPC } from '../../_trpc/client';

const referralPath = (code: string) => `/?ref=${encodeURIComponent(code)}`;
const absolute = (path: string) => new URL(path, window.location.origin).toString();

export function AffiliatesView({ isAdmin }: { isAdmin: boolean }) {
  const trpc = useTRPC();
  const [range, setRange] = useState<Range>('30d');
  const [ownerId, setOwnerId] = useState<string>('');
  const input = ownerId ? { range, ownerId } : { range };
  const overview = useQuery(trpc.affiliates.overview.queryOptions(input, { placeholderData: keepPreviousData }));
  const affiliates = useQuery({ ...trpc.affiliates.list.queryOptions(), enabled: isAdmin });
  const pickerId = useId();

  return (
    <div className={styles.stack}>
      <div className={styles.toolbar} style={{ marginBottom: 0 }}>
        <RangePicker value={range} onChange={setRange} />
        {isAdmin ? (
          <div className={styles.field}>
            <label className={styles.label} htmlFor={pickerId}>
              Affiliate
            </label>
            <select
              id={pickerId}
              className={styles.select}
              value={ownerId}
              onChange={(event) => setOwnerId(event.target.value)}
            >
              <option value="">All affiliates</option>
              {(affiliates.data ?? []).map((a) => (
                <option key={a.id} value={a.id}>
                  {a.email} ({a.codes} codes)
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </div>

      <CreateCode />

      <QueryPanel query={overview} loading="Loading referral stats…">
        {(data) => (
          <>
            <section aria-label="Totals" className={styles.kpiGrid}>
              <Kpi label="Referred swaps" value={formatCount(data.totals.swaps)} />
              <Kpi label="Settled volume" value={formatUsd(data.totals.volumeUsd)} hint="successful swaps" />
              <Kpi label="Fees" value={formatUsd(data.totals.feesUsd)} hint="on successful swaps" />
              <Kpi label="Success rate" value={formatPercent(data.totals.successRate)} hint="of finished swaps" />
            </section>

            <Panel title="Referred swaps over time" note={`per ${data.bucket}, UTC`}>
              {data.totals.swaps === 0 ? (
                <EmptyState title="No referred swaps in this range">
                  Share a link below; swaps made through it show up here.
                </EmptyState>
              ) : (
                <div className={styles.grid2}>
                  <TimeSeriesChart
                    data={data.series}
                    bucket={data.bucket}
                    kind="bar"
                    series={[{ key: 'swaps', label: 'Swaps', colour: '#6cb6ff' }]}
                    summary={`${data.totals.swaps} referred swaps in this range.`}
                  />
                  <TimeSeriesChart
                    data={data.series}
                    bucket={data.bucket}
                    kind="bar"
                    series={[
                      { key: 'volumeUsd', label: 'Volume (USD)', colour: '#4cc38a' },
                      { key: 'feesUsd', label: 'Fees (USD)', colour: '#e5b454' },
                    ]}
                    valueFormatter={formatUsdCompact}
                    summary={`${formatUsd(data.totals.volumeUsd)} settled volume and ${formatUsd(data.totals.feesUsd)} fees in this range.`}
                  />
                </div>
              )}
            </Panel>

            <Panel title="Referral codes" note={`${data.codes.length} ${data.codes.length === 1 ? 'code' : 'codes'}`}>
              {data.codes.length === 0 ? (
                <EmptyState title="No referral codes yet">Create one above to get a link to share.</EmptyState>
              ) : (
                <div className={styles.tableWrap}>
                  <table className={styles.table}>
                    <thead>
                      <tr>
                        <th scope="col">Code</th>
                        <th scope="col">Link</th>
                        {isAdmin ? <th scope="col">Owner</th> : null}
                        <th scope="col" className={styles.num}>
                          Swaps
                        </th>
                        <th scope="col" className={styles.num}>
                          Volume
                        </th>
                        <th scope="col" className={styles.num}>
                          Fees
                        </th>
                        <th scope="col" className={styles.num}>
                          Success
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.codes.map((c) => (
                        <tr key={c.code}>
                          <th scope="row">
                            <span className={styles.mono}>{c.code}</span>
                            {c.label ? <span className={styles.muted}> · {c.label}</span> : null}
                            {c.active ? null : (
                              <>
                                {' '}
                                <StatusBadge status="expired" label="inactive" />
                              </>
                            )}
                          </th>
                          <td>
                            <span className={styles.linkCell}>
                              <Link className={styles.mono} href={referralPath(c.code)}>
                                {referralPath(c.code)}
                              </Link>
                              <CopyButton value={referralPath(c.code)} label="Copy link" resolve={absolute} />
                            </span>
                          </td>
                          {isAdmin ? <td>{c.ownerEmail ?? c.ownerId}</td> : null}
                          <td className={styles.num}>{formatCount(c.swaps)}</td>
                          <td className={styles.num}>{formatUsd(c.volumeUsd)}</td>
                          <td className={styles.num}>{formatUsd(c.feesUsd)}</td>
                          <td className={styles.num}>{formatPercent(c.successRate)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </Panel>

            <Panel title="Recent referred swaps" note="latest 20">
              {data.recent.length === 0 ? (
                <EmptyState title="No referred swaps yet" />
              ) : (
                <div className={styles.tableWrap}>
                  <table className={styles.table}>
                    <thead>
                      <tr>
                        <th scope="col">Created</th>
                        <th scope="col">Code</th>
                        <th scope="col">Status</th>
                        <th scope="col">Swap</th>
                        <th scope="col" className={styles.num}>
                          USD
                        </th>
                        <th scope="col">Provider</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.recent.map((tx) => (
                        <tr key={tx.id}>
                          <td>{formatDateTime(tx.createdAt)}</td>
                          <td className={styles.mono}>{tx.referralCode}</td>
                          <td>
                            <StatusBadge status={tx.status} />
                          </td>
                          <td>
                            {tx.srcAmount} {tx.srcSymbol}{' '}
                            <span className={styles.muted}>
                              ({tx.srcChain}) → {tx.dstSymbol} ({tx.dstChain})
                            </span>
                          </td>
                          <td className={styles.num}>{formatUsd(tx.amountUsd)}</td>
                          <td>{tx.provider}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </Panel>
          </>
        )}
      </QueryPanel>
    </div>
  );
}

function CreateCode() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const ids = { code: useId(), label: useId(), help: useId(), status: useId() };
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
    const code = String(form.get('code') ?? '').trim();
    const label = String(form.get('label') ?? '').trim();
    if (!REFERRAL_CODE_PATTERN.test(code)) {
      setLocalError('Use 3 to 32 characters: letters, digits, _ or -.');
      return;
    }
    setLocalError(null);
    create.mutate(label ? { code, label } : { code }, { onSuccess: () => formElement.reset() });
  };

  const error = localError ?? (create.isError ? describeError(create.error).message : null);
  return (
    <Panel title="New referral link">
      <form onSubmit={submit} noValidate>
        <div className={styles.formRow}>
          <div className={styles.field}>
            <label className={styles.label} htmlFor={ids.code}>
              Code
            </label>
            <input
              id={ids.code}
              name="code"
              className={`${styles.input} ${styles.mono}`}
              required
              minLength={3}
              maxLength={32}
              pattern="[A-Za-z0-9_\-]{3,32}"
              aria-describedby={`${ids.help}${error ? ` ${ids.status}` : ''}`}
              aria-invalid={error ? true : undefined}
              autoComplete="off"
              spellCheck={false}
            />
          </div>
          <div className={`${styles.field} ${styles.fieldGrow}`}>
            <label className={styles.label} htmlFor={ids.label}>
              Name (optional)
            </label>
            <input
              id={ids.label}
              name="label"
              className={styles.input}
              maxLength={64}
              placeholder="e.g. Newsletter, March"
            />
          </div>
          <button type="submit" className={`${styles.button} ${styles.buttonPrimary}`} disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create link'}
          </button>
        </div>
        <p id={ids.help} className={styles.panelNote} style={{ margin: '8px 0 0' }}>
          3–32 letters, digits, _ or -. Codes are unique across Switchyard, ignoring case.
        </p>
        <div aria-live="polite">
          {error ? (
            <p id={ids.status} className={styles.formError} role="alert">
              {error}
            </p>
          ) : create.isSuccess ? (
            <p id={ids.status} className={styles.formSuccess}>
              Created <span className={styles.mono}>{create.data.code}</span>: share{' '}
              <span className={styles.mono}>{referralPath(create.data.code)}</span>
            </p>
          ) : null}
        </div>
      </form>
    </Panel>
  );
}
