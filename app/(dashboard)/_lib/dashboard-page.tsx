import type { TRPCQueryOptions } from '@trpc/tanstack-react-query';
import { forbidden } from 'next/navigation';
import type { ReactNode } from 'react';
import type { Gate, Viewer } from '@/server/auth/roles';
import { HydrateClient, prefetch } from '@/server/trpc/server';
import { viewerFor } from './viewer';

type Query = ReturnType<TRPCQueryOptions<any>>;

/**
 * Every dashboard page: a viewer who does not pass `gate` gets the 403 page; the page's queries
 * run on the server and the view hydrates with their results. They are awaited so the server
 * renders the same data the browser hydrates with (a query still pending on the server would
 * render a loading state the browser no longer has).
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
  /** The page's title; a view that titles itself from its data leaves it out. */
  header?: (viewer: Viewer) => ReactNode;
  queries: (viewer: Viewer) => Query[];
  view: (viewer: Viewer) => ReactNode;
}) {
  const { viewer, allowed } = await viewerFor(path, gate);
  if (!allowed) forbidden();
  await Promise.all(queries(viewer).map(prefetch));
  return (
    <HydrateClient>
      {header?.(viewer)}
      {view(viewer)}
    </HydrateClient>
  );
}
