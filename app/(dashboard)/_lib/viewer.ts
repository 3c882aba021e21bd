import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { type Gate, passesGate, type Viewer } from '@/server/auth/roles';
import { getViewer } from '@/server/auth/session';
import { getAppContext } from '@/server/context';

/** The signed-in user for this request (read once per render), or null. */
export const currentViewer = cache(async (): Promise<Viewer | null> => {
  // Reading the request first marks the page dynamic before the app context (and its secrets) is touched.
  const requestHeaders = await headers();
  return getViewer(getAppContext(), requestHeaders);
});

/** The path being rendered, as proxy.ts passed it on; layouts are not told otherwise. */
export async function currentPath(fallback: string): Promise<string> {
  return (await headers()).get('x-pathname') ?? fallback;
}

/** Pages redirect anonymous visitors to sign-in; the tRPC procedures are what actually enforce roles. */
export async function requireViewer(returnTo: string): Promise<Viewer> {
  const viewer = await currentViewer();
  if (!viewer) redirect(`/sign-in?next=${encodeURIComponent(returnTo)}`);
  return viewer;
}

export async function viewerFor(returnTo: string, gate: Gate) {
  const viewer = await requireViewer(returnTo);
  return { viewer, allowed: passesGate(viewer.role, gate) };
}

/** Where each role lands after signing in. */
export const homeFor = (viewer: Viewer) =>
  viewer.role === 'affiliate'
    ? '/dashboard/affiliates'
    : viewer.role === 'support'
      ? '/dashboard/transactions'
      : '/dashboard/operations';

/** Only same-site dashboard paths are followed after sign-in. */
export const safeReturnPath = (next: string | undefined) =>
  next && /^\/dashboard(\/[\w\-./?=&%]*)?$/.test(next) && !next.startsWith('//') ? next : null;
