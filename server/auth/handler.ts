import { type AppContext, getAppContext } from '../context';
import { AUTH_CLIENT_IP_HEADER, clientAddress } from '../ratelimit/client';
import { getAuth } from './auth';

/**
 * Better Auth's HTTP endpoints (sign-in, sign-up, sign-out, session). The address it records and
 * rate-limits on is the one our own layer vouched for, never a header the client chose.
 */
export function handleAuthRequestFor(app: AppContext, request: Request): Promise<Response> {
  const headers = new Headers(request.headers);
  headers.set(AUTH_CLIENT_IP_HEADER, clientAddress(request, app.config));
  return getAuth(app).handler(new Request(request, { headers }));
}

export const handleAuthRequest = (request: Request) => handleAuthRequestFor(getAppContext(), request);
