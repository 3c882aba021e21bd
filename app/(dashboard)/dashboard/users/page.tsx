import type { Metadata } from 'next';
import { HydrateClient, prefetch, trpc } from '@/server/trpc/server';
import { PageHeader } from '../../_components/layout-parts';
import { Forbidden } from '../../_components/states';
import { viewerFor } from '../../_lib/viewer';
import { UsersView } from './UsersView';

export const metadata: Metadata = { title: 'Users' };

export default async function UsersPage() {
  const { viewer, allowed } = await viewerFor('/dashboard/users', 'admin');
  const header = (
    <PageHeader
      title="Users"
      lead="Invite support staff and admins, and change anyone's role. Affiliates can also sign up themselves."
    />
  );
  if (!allowed) {
    return (
      <>
        {header}
        <Forbidden needs="admin" />
      </>
    );
  }
  prefetch(trpc.users.list.queryOptions());
  return (
    <HydrateClient>
      {header}
      <UsersView currentUserId={viewer.userId} />
    </HydrateClient>
  );
}
