'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useMemo } from 'react';
import { Button } from '@/app/_kit/Button';
import { type Columns, columnsOf, numeric } from '@/app/_kit/DataTable';
import { formatDateTime } from '@/app/_kit/format';
import { FormStatus } from '@/app/_kit/Notice';
import { StatusBadge } from '@/app/_kit/StatusBadge';
import text from '@/app/_kit/text.module.css';
import { describeError } from '../../_components/query-error';
import { type RouterOutputs, useTRPC } from '../../_trpc/client';

export type DeliveryAttempt = RouterOutputs['webhooks']['deliveries'][number];

const attempt = columnsOf<DeliveryAttempt>();

/** The attempts columns; `show` picks the context columns (the transaction on an endpoint's log, the endpoint on a transaction's). */
export function useDeliveryColumns({
  show,
  canRedeliver,
  linkTransactions,
}: {
  show: 'transaction' | 'endpoint';
  canRedeliver: boolean;
  linkTransactions: boolean;
}): Columns<DeliveryAttempt> {
  return useMemo(
    () =>
      attempt.columns([
        attempt.accessor('at', {
          header: 'At',
          meta: { rowHeader: true, breakable: true },
          cell: (c) => formatDateTime(c.getValue()),
        }),
        attempt.accessor('eventType', {
          header: 'Event',
          cell: (c) => <span className={text.mono}>{c.getValue()}</span>,
        }),
        show === 'transaction'
          ? attempt.accessor('transactionId', {
              header: 'Transaction',
              cell: (c) =>
                linkTransactions ? (
                  <Link className={text.mono} href={`/dashboard/transactions/${c.getValue()}`}>
                    {c.getValue()}
                  </Link>
                ) : (
                  <span className={text.mono}>{c.getValue()}</span>
                ),
            })
          : attempt.accessor('endpointUrl', {
              header: 'Endpoint',
              meta: { wrap: true },
              cell: (c) => <span className={text.mono}>{c.getValue()}</span>,
            }),
        attempt.display({
          id: 'result',
          header: 'Attempt',
          meta: { breakable: true },
          cell: ({ row: { original: d } }) => (
            <>
              <span className={text.muted}>#{d.attempt}</span>{' '}
              {d.error === null ? (
                <StatusBadge status="delivered" label={`${d.statusCode} delivered`} />
              ) : d.statusCode !== null ? (
                <StatusBadge status="failed" label={`${d.statusCode} failed`} />
              ) : (
                <>
                  <StatusBadge status="failed" label="no answer" /> <span className={text.muted}>{d.error}</span>
                </>
              )}
            </>
          ),
        }),
        attempt.accessor('latencyMs', { header: 'Latency', ...numeric((ms: number) => `${ms} ms`) }),
        attempt.accessor('messageState', {
          header: 'Message state',
          cell: ({ row: { original: d } }) => (
            <span title={d.messageId}>
              <StatusBadge status={d.messageState} />
            </span>
          ),
        }),
        ...(canRedeliver
          ? [
              attempt.display({
                id: 'redeliver',
                header: () => <span className={text.muted}>Actions</span>,
                cell: ({ row: { original: d } }) => <RedeliverButton messageId={d.messageId} />,
              }),
            ]
          : []),
      ]),
    [show, canRedeliver, linkTransactions],
  );
}

function RedeliverButton({ messageId }: { messageId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const redeliver = useMutation(
    trpc.webhooks.redeliver.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() }),
    }),
  );
  return (
    <>
      <Button
        size="small"
        busy={redeliver.isPending}
        disabled={redeliver.isPending}
        aria-label={`Redeliver message ${messageId}`}
        onClick={() => redeliver.mutate({ messageId })}
      >
        {redeliver.isSuccess ? 'Queued' : 'Redeliver'}
      </Button>
      {redeliver.isError ? (
        <FormStatus tone="error" role="alert">
          {describeError(redeliver.error).message}
        </FormStatus>
      ) : null}
    </>
  );
}
