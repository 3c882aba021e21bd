import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { createTRPCOptionsProxy, type TRPCQueryOptions } from '@trpc/tanstack-react-query';
import { headers } from 'next/headers';
import { cache, type ReactNode } from 'react';
import { getAppContext } from '../context';
import { createDashboardContext } from './init';
import { makeQueryClient } from './query-client';
import { appRouter } from './routers/_app';

/** One query client and one context per server request. */
export const getQueryClient = cache(makeQueryClient);
const getContext = cache(async () => {
  const requestHeaders = await headers();
  return createDashboardContext({ app: getAppContext(), headers: requestHeaders });
});

export const trpc = createTRPCOptionsProxy({ ctx: getContext, router: appRouter, queryClient: getQueryClient });

/** Runs a query on the server; its result reaches the client through HydrateClient (an error is left for the client to retry). */
export function prefetch<T extends ReturnType<TRPCQueryOptions<any>>>(queryOptions: T): Promise<void> {
  return getQueryClient().prefetchQuery(queryOptions);
}

export function HydrateClient({ children }: { children: ReactNode }) {
  return <HydrationBoundary state={dehydrate(getQueryClient())}>{children}</HydrationBoundary>;
}
