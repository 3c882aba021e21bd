'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { Button } from '@/app/_kit/Button';
import { CopyButton } from '@/app/_kit/CopyButton';
import { columnsOf, DataTable, TablePanel } from '@/app/_kit/DataTable';
import { controlClass, Field } from '@/app/_kit/Field';
import { formatDateTime } from '@/app/_kit/format';
import layout from '@/app/_kit/layout.module.css';
import { FormStatus, Notice } from '@/app/_kit/Notice';
import { Panel } from '@/app/_kit/Panel';
import { RelativeTime } from '@/app/_kit/RelativeTime';
import { StatusBadge } from '@/app/_kit/StatusBadge';
import { EmptyState } from '@/app/_kit/states';
import text from '@/app/_kit/text.module.css';
import type { WebhookScope } from '@/server/webhooks/schemas';
import { describeError } from '../../_components/query-error';
import { QueryState } from '../../_components/states';
import { type RouterOutputs, useTRPC } from '../../_trpc/client';
import forms from '../forms.module.css';
import { useDeliveryColumns } from './DeliveryLog';

type Endpoint = RouterOutputs['webhooks']['list'][number];

/** A secret is shown once, right after it is made; the server never returns it again. */
interface ShownSecret {
  endpointId: string;
  url: string;
  secret: string;
  rotated: boolean;
}

export function WebhooksView({ isAdmin }: { isAdmin: boolean }) {
  const trpc = useTRPC();
  const endpoints = useQuery(trpc.webhooks.list.queryOptions());
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const [selected, setSelected] = useState<string | null>(null);

  return (
    <div className={layout.stack}>
      <CreateEndpoint isAdmin={isAdmin} onCreated={setSecret} />
      {secret ? <SecretOnce shown={secret} onDismiss={() => setSecret(null)} /> : null}
      <QueryState query={endpoints} loading="Loading webhook endpoints…">
        {(data) => (
          <>
            <EndpointsTable
              endpoints={data}
              isAdmin={isAdmin}
              selected={selected}
              onSelect={setSelected}
              onRotated={setSecret}
            />
            {selected && data.some((e) => e.id === selected) ? (
              <EndpointDeliveries endpoint={data.find((e) => e.id === selected) as Endpoint} isAdmin={isAdmin} />
            ) : null}
          </>
        )}
      </QueryState>
    </div>
  );
}

function CreateEndpoint({ isAdmin, onCreated }: { isAdmin: boolean; onCreated: (shown: ShownSecret) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const ids = { help: useId(), status: useId() };
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: ({ endpoint, secret }) => {
        onCreated({ endpointId: endpoint.id, url: endpoint.url, secret, rotated: false });
        return queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
      },
    }),
  );

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const description = String(form.get('description') ?? '').trim();
    create.mutate(
      {
        url: String(form.get('url') ?? '').trim(),
        scope: (isAdmin ? String(form.get('scope')) : 'affiliate') as WebhookScope,
        ...(description ? { description } : {}),
        lateEvents: form.get('lateEvents') === 'on',
      },
      { onSuccess: () => formElement.reset() },
    );
  };

  const error = create.isError ? describeError(create.error).message : null;
  return (
    <Panel title="New endpoint">
      <form onSubmit={submit} noValidate>
        <div className={forms.row}>
          <Field label="URL" grow describedBy={error ? `${ids.help} ${ids.status}` : ids.help} invalid={Boolean(error)}>
            <input
              name="url"
              type="url"
              className={controlClass({ mono: true })}
              required
              maxLength={2048}
              placeholder="https://example.com/webhooks/switchyard"
              autoComplete="off"
              spellCheck={false}
            />
          </Field>
          {isAdmin ? (
            <Field label="Swaps">
              <select name="scope" className={controlClass()} defaultValue="all">
                <option value="all">All swaps</option>
                <option value="affiliate">My referred swaps</option>
              </select>
            </Field>
          ) : null}
          <Field label="Description (optional)">
            <input name="description" className={controlClass()} maxLength={120} placeholder="e.g. Production" />
          </Field>
          <label className={forms.check}>
            <input type="checkbox" name="lateEvents" /> Late swaps too
          </label>
          <Button type="submit" variant="primary" disabled={create.isPending} busy={create.isPending}>
            Add endpoint
          </Button>
        </div>
        <p id={ids.help} className={forms.help}>
          HTTPS only, on a public address. Events: <span className={text.mono}>transaction.created</span>,{' '}
          <span className={text.mono}>transaction.status_changed</span>,{' '}
          <span className={text.mono}>transaction.final</span>, and with “Late swaps too”{' '}
          <span className={text.mono}>transaction.late</span> (a pending swap past its route&apos;s usual time ×
          LATE_FACTOR), signed per Standard Webhooks.
        </p>
        <div aria-live="polite">
          {error ? (
            <FormStatus tone="error" id={ids.status} role="alert">
              <span className={text.value}>{error}</span>
            </FormStatus>
          ) : null}
        </div>
      </form>
    </Panel>
  );
}

function SecretOnce({ shown, onDismiss }: { shown: ShownSecret; onDismiss: () => void }) {
  return (
    <Notice tone="success" role="status" title={shown.rotated ? 'Secret rotated.' : 'Endpoint added.'}>
      <p>
        Signing secret for <span className={`${text.mono} ${text.value}`}>{shown.url}</span>. Copy it now: it is not
        shown again.
        {shown.rotated ? ' The previous secret also signs deliveries for 24 hours, so you can switch over.' : ''}
      </p>
      <div className={layout.inline}>
        <code className={text.mono} data-testid="webhook-secret">
          {shown.secret}
        </code>
        <CopyButton value={shown.secret} label="Copy the signing secret" />
        <Button size="small" onClick={onDismiss}>
          Done
        </Button>
      </div>
    </Notice>
  );
}

const endpoint = columnsOf<Endpoint>();

function EndpointsTable({
  endpoints,
  isAdmin,
  selected,
  onSelect,
  onRotated,
}: {
  endpoints: Endpoint[];
  isAdmin: boolean;
  selected: string | null;
  onSelect: (id: string | null) => void;
  onRotated: (shown: ShownSecret) => void;
}) {
  const columns = useMemo(
    () =>
      endpoint.columns([
        endpoint.accessor('url', {
          header: 'Endpoint',
          meta: { rowHeader: true, wrap: true },
          cell: ({ row: { original: e } }) => (
            <>
              <span className={`${text.mono} ${text.value}`}>{e.url}</span>
              <br />
              <span className={text.muted}>
                {e.scope === 'all' ? 'All swaps' : 'Referred swaps'}
                {e.description ? ` · ${e.description}` : ''} · added {formatDateTime(e.createdAt)}
              </span>
            </>
          ),
        }),
        ...(isAdmin ? [endpoint.accessor((e) => e.ownerEmail ?? e.ownerId, { id: 'owner', header: 'Owner' })] : []),
        endpoint.display({
          id: 'state',
          header: 'State',
          meta: { wrap: true },
          cell: ({ row: { original: e } }) => <EndpointState endpoint={e} />,
        }),
        endpoint.display({
          id: 'actions',
          header: () => <span className={text.muted}>Actions</span>,
          cell: ({ row: { original: e } }) => (
            <EndpointActions
              endpoint={e}
              showing={selected === e.id}
              onToggleLog={() => onSelect(selected === e.id ? null : e.id)}
              onRotated={onRotated}
            />
          ),
        }),
      ]),
    [isAdmin, selected, onSelect, onRotated],
  );
  return (
    <TablePanel
      title="Endpoints"
      note={`${endpoints.length} ${endpoints.length === 1 ? 'endpoint' : 'endpoints'}`}
      columns={columns}
      data={endpoints}
      getRowId={(e) => e.id}
      empty={<EmptyState title="No webhook endpoints yet">Add one above to be told when swaps change.</EmptyState>}
    />
  );
}

function EndpointState({ endpoint: e }: { endpoint: Endpoint }) {
  if (!e.enabled) {
    return (
      <>
        <StatusBadge status="disabled" label="Disabled" />
        <br />
        <span className={text.muted}>{e.disabledReason ?? 'turned off'}</span>
      </>
    );
  }
  if (e.failingSince) {
    return (
      <>
        <StatusBadge status="failing" label="Failing" />
        <br />
        <span className={text.muted}>
          since <RelativeTime value={e.failingSince} />
        </span>
      </>
    );
  }
  return <StatusBadge status="active" label="Active" />;
}

function EndpointActions({
  endpoint: e,
  showing,
  onToggleLog,
  onRotated,
}: {
  endpoint: Endpoint;
  showing: boolean;
  onToggleLog: () => void;
  onRotated: (shown: ShownSecret) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
  const rotate = useMutation(
    trpc.webhooks.rotateSecret.mutationOptions({
      onSuccess: ({ secret }) => onRotated({ endpointId: e.id, url: e.url, secret, rotated: true }),
    }),
  );
  const remove = useMutation(trpc.webhooks.delete.mutationOptions({ onSuccess: refresh }));
  const enable = useMutation(trpc.webhooks.enable.mutationOptions({ onSuccess: refresh }));
  const failed = [rotate, remove, enable].find((m) => m.isError);
  return (
    <div className={layout.inline}>
      <Button size="small" aria-expanded={showing} onClick={onToggleLog}>
        {showing ? 'Hide deliveries' : 'Deliveries'}
      </Button>
      {e.canEnable ? (
        <Button
          size="small"
          variant="accent"
          busy={enable.isPending}
          onClick={() => enable.mutate({ endpointId: e.id })}
        >
          Enable
        </Button>
      ) : null}
      <Button
        size="small"
        busy={rotate.isPending}
        onClick={() => {
          if (window.confirm(`Rotate the signing secret of ${e.url}?`)) rotate.mutate({ endpointId: e.id });
        }}
      >
        Rotate secret
      </Button>
      <Button
        size="small"
        busy={remove.isPending}
        onClick={() => {
          if (window.confirm(`Delete the endpoint ${e.url} and its delivery log?`)) remove.mutate({ endpointId: e.id });
        }}
      >
        Delete
      </Button>
      {failed?.error ? (
        <FormStatus tone="error" role="alert">
          {describeError(failed.error).message}
        </FormStatus>
      ) : null}
    </div>
  );
}

function EndpointDeliveries({ endpoint: e, isAdmin }: { endpoint: Endpoint; isAdmin: boolean }) {
  const trpc = useTRPC();
  const deliveries = useQuery(trpc.webhooks.deliveries.queryOptions({ endpointId: e.id }));
  const columns = useDeliveryColumns({ show: 'transaction', canRedeliver: e.enabled, linkTransactions: isAdmin });
  return (
    <Panel title="Delivery log" note={<span className={`${text.mono} ${text.value}`}>{e.url}</span>}>
      <QueryState query={deliveries} loading="Loading deliveries…" boxed={false}>
        {(data) => (
          <DataTable
            caption={`Deliveries to ${e.url}, newest first`}
            columns={columns}
            data={data}
            getRowId={(d) => String(d.id)}
            empty={
              <EmptyState title="No deliveries yet">
                Attempts show up here, newest first, and stay for 30 days.
              </EmptyState>
            }
          />
        )}
      </QueryState>
    </Panel>
  );
}
