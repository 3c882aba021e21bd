import type { TRPCQueryOptions } from '@trpc/tanstack-react-query';
import type { ReactNode } from 'react';
import { GATES, type Gate, type Viewer } from '@/server/auth/roles';
import { HydrateClient, prefetch } from '@/server/trpc/server';
import { Forbidden } from '../_components/states';
import { viewerFor } from './viewer';

type Query = ReturnType<TRPCQueryOptions<any>>;

/**
 * Every dashboard page: the viewer must pass `gate` (others see the header and why they can't see
 * more), the page's queries start on the server, and the view hydrates with their results.
 */
export async function dashboardPage({
  path,
  gate,
  header,
  queries,
  view,
}: {
  path: string;
  gate: Gate;
  /** The page's title; a view that titles itself from its data can leave it out where `allowed`. */
  header: (viewer: Viewer, allowed: boolean) => ReactNode;
  queries: (viewer: Viewer) => Query[];
  view: (viewer: Viewer) => ReactNode;
}) {
  const { viewer, allowed } = await viewerFor(path, gate);
  if (!allowed) {
    return (
      <>
        {header(viewer, false)}
        <Forbidden needs={GATES[gate].join(' or ')} />
      </>
    );
  }
  for (const query of queries(viewer)) prefetch(query);
  return (
    <HydrateClient>
      {header(viewer, true)}
      {view(viewer)}
    </HydrateClient>
  );
}
