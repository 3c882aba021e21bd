import type { Metadata } from 'next';
import { PageHeader } from '@/app/_kit/Panel';
import { trpc } from '@/server/trpc/server';
import { dashboardPage } from '../../_lib/dashboard-page';
import { UsersView } from './UsersView';

export const metadata: Metadata = { title: 'Users' };

export default function UsersPage() {
  return dashboardPage({
    path: '/dashboard/users',
    gate: 'admin',
    header: () => (
      <PageHeader
        title="Users"
        lead="Invite support staff and admins, and change anyone's role. Affiliates can also sign up themselves."
      />
    ),
    queries: () => [trpc.users.list.queryOptions()],
    view: (viewer) => <UsersView currentUserId={viewer.userId} />,
  });
}
