import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { authBaseUrl } from '../auth/auth';
import { type AppContext, getAppContext } from '../context';
import { withCappedBody } from '../http/capped-body';
import { createDashboardContext } from './init';
import { appRouter } from './routers/_app';

export const TRPC_ENDPOINT = '/api/trpc';

const refuse = (status: number, message: string) =>
  Response.json({ error: { message } }, { status, headers: { 'cache-control': 'no-store' } });

/**
 * Mutations only as same-origin JSON POSTs: a cross-site form can neither send that content type
 * without a preflight nor forge the Origin header. Better Auth's cookies are SameSite=Lax on top.
 */
function csrfProblem(app: AppContext, request: Request): Response | null {
  if (request.method !== 'POST') return null;
  const contentType = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json') return refuse(415, 'Dashboard requests must be JSON');
  const origin = request.headers.get('origin');
  if (origin) {
    const sameHost = URL.canParse(origin) && new URL(origin).host === request.headers.get('host');
    if (!sameHost && origin !== new URL(authBaseUrl(app)).origin) return refuse(403, 'Cross-origin request refused');
  }
  return null;
}

/** Dashboard procedures; a body over DASHBOARD_MAX_BODY_BYTES is refused (413) before tRPC reads it. */
export async function handleTrpcRequest(request: Request, app: AppContext = getAppContext()): Promise<Response> {
  const refused = csrfProblem(app, request);
  if (refused) return refused;
  const capped = await withCappedBody(request, app.config.dashboardMaxBodyBytes);
  if (capped instanceof Response) return capped;
  return fetchRequestHandler({
    endpoint: TRPC_ENDPOINT,
    req: capped,
    router: appRouter,
    allowMethodOverride: false,
    createContext: () => createDashboardContext({ app, headers: capped.headers }),
    responseMeta: () => ({ headers: new Headers({ 'cache-control': 'no-store' }) }),
    onError: ({ error, path }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') {
        app.log.error({ err: error.cause ?? error, path }, 'dashboard procedure failed');
      }
    },
  });
}
