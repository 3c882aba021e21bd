import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { authBaseUrl } from '../auth/auth';
import { type AppContext, getAppContext } from '../context';
import { DEPENDENCY_RETRY_AFTER_SECONDS } from '../errors';
import { withCappedBody } from '../http/capped-body';
import { createDashboardContext } from './init';
import { rateLimitHeadersOf } from './rate-limit';
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

/** Procedures a request names (`/api/trpc/a,b,c`): a batch of more than TRPC_MAX_BATCH is refused before any runs. */
function batchProblem(app: AppContext, request: Request): Response | null {
  const paths = new URL(request.url).pathname.slice(TRPC_ENDPOINT.length + 1);
  const calls = paths.split(',').length;
  const max = app.config.trpcMaxBatch;
  return calls > max ? refuse(400, `A request may batch at most ${max} calls; this one has ${calls}`) : null;
}

/**
 * Dashboard procedures; a body over DASHBOARD_MAX_BODY_BYTES is refused (413) before tRPC reads it, and
 * a batch over TRPC_MAX_BATCH (400). Each call counts against its user's RATE_LIMIT_DASHBOARD.
 */
export async function handleTrpcRequest(request: Request, app: AppContext = getAppContext()): Promise<Response> {
  const refused = csrfProblem(app, request) ?? batchProblem(app, request);
  if (refused) return refused;
  const capped = await withCappedBody(request, app.config.dashboardMaxBodyBytes);
  if (capped instanceof Response) return capped;
  return fetchRequestHandler({
    endpoint: TRPC_ENDPOINT,
    req: capped,
    router: appRouter,
    allowMethodOverride: false,
    createContext: () => createDashboardContext({ app, headers: capped.headers }),
    responseMeta: ({ ctx, errors }) => ({
      headers: new Headers({
        'cache-control': 'no-store',
        ...(ctx?.origin.requestId && { 'x-request-id': ctx.origin.requestId }),
        ...rateLimitHeadersOf(errors),
        ...(errors.some((error) => error.code === 'SERVICE_UNAVAILABLE') && {
          'retry-after': DEPENDENCY_RETRY_AFTER_SECONDS,
        }),
      }),
    }),
    onError: ({ error, path }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') {
        app.log.error({ err: error.cause ?? error, path }, 'dashboard procedure failed');
      }
    },
  });
}
