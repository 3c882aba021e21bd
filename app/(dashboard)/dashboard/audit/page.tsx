import type { Metadata } from 'next';
import { PageHeader } from '@/app/_kit/Panel';
import { trpc } from '@/server/trpc/server';
import { dashboardPage } from '../../_lib/dashboard-page';
import { AuditView } from './AuditView';

export const metadata: Metadata = { title: 'Audit log' };

export default function AuditPage() {
  return dashboardPage({
    path: '/dashboard/audit',
    gate: 'admin',
    header: () => (
      <PageHeader
        title="Audit log"
        lead="Every sign-in, role change, webhook, referral code, poll and export staff made, newest first. Rows cannot be changed or deleted, and each carries the hash of the one before."
      />
    ),
    queries: () => [trpc.audit.list.queryOptions({}), trpc.audit.failedSignIns.queryOptions({ window: '24h' })],
    view: () => <AuditView />,
  });
}
