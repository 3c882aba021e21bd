import { type AppContext, getAppContext } from '../context';
import { DEPENDENCY_RETRY_AFTER_SECONDS, toAppError } from '../errors';
import { checkReadiness } from '../health';
import { withCappedBody } from '../http/capped-body';
import { AUTH_CLIENT_IP_HEADER, clientAddress } from '../ratelimit/client';
import { triedEmail } from './audit-hooks';
import { AUTH_BASE_PATH, getAuth } from './auth';
import { auditThrottledSignIn } from './throttled-sign-in';

const failure = (status: 500 | 503) =>
  Response.json(
    status === 503
      ? { code: 'SERVICE_UNAVAILABLE', message: 'A backing service is temporarily unavailable; retry shortly' }
      : { code: 'INTERNAL_ERROR', message: 'Internal error' },
    {
      status,
      headers: {
        'cache-control': 'no-store',
        ...(status === 503 && { 'retry-after': DEPENDENCY_RETRY_AFTER_SECONDS }),
      },
    },
  );

/**
 * Better Auth's HTTP endpoints (sign-in, sign-up, sign-out, session). The address it records and
 * rate-limits on is the one our own layer vouched for, never a header the client chose. A body over
 * DASHBOARD_MAX_BODY_BYTES is refused (413) before Better Auth reads it. A failure is answered here,
 * with nothing of it in the body: 503 with Retry-After while Postgres or Redis is down, else 500.
 */
export async function handleAuthRequestFor(app: AppContext, request: Request): Promise<Response> {
  const capped = await withCappedBody(request, app.config.dashboardMaxBodyBytes);
  if (capped instanceof Response) return capped;
  const headers = new Headers(capped.headers);
  const address = clientAddress(capped, app.config);
  headers.set(AUTH_CLIENT_IP_HEADER, address);
  const path = new URL(capped.url).pathname;
  const signIn = path.startsWith(`${AUTH_BASE_PATH}/sign-in`) ? capped.clone() : undefined;
  let response: Response;
  try {
    response = await getAuth(app).handler(new Request(capped, { headers }));
    if (signIn && response.status === 429) {
      const email = triedEmail(await signIn.json().catch(() => undefined));
      await auditThrottledSignIn(app, { address, email, headers });
    }
  } catch (error) {
    const appError = toAppError(error);
    app.log.error({ err: error, path }, 'auth request failed');
    return failure(appError.status === 503 ? 503 : await statusWhileFailing(app));
  }
  if (response.status < 500) return response;
  // Better Auth answers its own wrapped errors without handing them over: ask the dependencies.
  const status = await statusWhileFailing(app);
  app.log.error({ path, status: response.status }, 'auth request failed');
  return failure(status);
}

async function statusWhileFailing(app: AppContext): Promise<500 | 503> {
  return (await checkReadiness(app)).ok ? 500 : 503;
}

export const handleAuthRequest = (request: Request) => handleAuthRequestFor(getAppContext(), request);
