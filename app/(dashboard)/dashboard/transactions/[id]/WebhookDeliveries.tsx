'use client';

import { useQuery } from '@tanstack/react-query';
import { DataTable } from '@/app/_kit/DataTable';
import { Panel } from '@/app/_kit/Panel';
import { QueryState } from '../../../_components/states';
import { useTRPC } from '../../../_trpc/client';
import { useDeliveryColumns } from '../../webhooks/DeliveryLog';

/** Every webhook attempt about this transaction, to every endpoint, newest first; admins may redeliver. */
export function WebhookDeliveries({ transactionId, canRedeliver }: { transactionId: string; canRedeliver: boolean }) {
  const trpc = useTRPC();
  const deliveries = useQuery(trpc.webhooks.transactionDeliveries.queryOptions({ transactionId }));
  const columns = useDeliveryColumns({ show: 'endpoint', canRedeliver, linkTransactions: false });
  return (
    <Panel title="Webhook deliveries" note="kept 30 days">
      <QueryState query={deliveries} loading="Loading webhook deliveries…" boxed={false}>
        {(data) => (
          <DataTable
            caption="Webhook deliveries for this transaction, newest first"
            columns={columns}
            data={data}
            getRowId={(d) => String(d.id)}
            empty="No webhook deliveries for this transaction"
          />
        )}
      </QueryState>
    </Panel>
  );
}
