import { randomBytes } from 'node:crypto';
import { getAuth } from '../../server/auth/auth';
import type { Role } from '../../server/auth/roles';
import { createUserWithRole } from '../../server/auth/users';
import type { AppContext } from '../../server/context';
import { createDashboardContext } from '../../server/trpc/init';
import { appRouter } from '../../server/trpc/routers/_app';

export const PASSWORD = 'correct horse battery staple';

export const uniqueEmail = (label: string) => `${label}-${randomBytes(4).toString('hex')}@switchyard.test`;

/** The Cookie header a browser would send after Better Auth's Set-Cookie. */
export function cookieHeader(response: Headers): string {
  return response
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

export async function signIn(app: AppContext, email: string, password = PASSWORD): Promise<Headers> {
  const { headers } = await getAuth(app).api.signInEmail({ body: { email, password }, returnHeaders: true });
  return new Headers({ cookie: cookieHeader(headers) });
}

export interface SignedInUser {
  id: string;
  email: string;
  role: Role;
  headers: Headers;
}

/** A real user created through Better Auth, signed in through Better Auth: the session lives in Postgres. */
export async function signedInUser(app: AppContext, role: Role): Promise<SignedInUser> {
  const email = uniqueEmail(role);
  const { id } = await createUserWithRole(app, { email, name: `${role} user`, password: PASSWORD, role });
  return { id, email, role, headers: await signIn(app, email) };
}

export async function callerFor(app: AppContext, headers: Headers = new Headers()) {
  return appRouter.createCaller(await createDashboardContext({ app, headers }));
}
export type Caller = Awaited<ReturnType<typeof callerFor>>;

/** The tRPC error code a call rejected with, or 'OK'. */
export async function outcomeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'OK';
  } catch (error) {
    return (error as { code?: string }).code ?? `non-tRPC error: ${String(error)}`;
  }
}
