import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { admin } from 'better-auth/plugins';
import { adminAc, defaultAc } from 'better-auth/plugins/admin/access';
import { authAccounts, authSessions, authUsers, authVerifications } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { CLIENT_IP_HEADER } from '../ratelimit/client';
import { SELF_SIGN_UP_ROLE } from './roles';

export const AUTH_BASE_PATH = '/api/auth';

export const authBaseUrl = (app: AppContext) =>
  app.config.publicBaseUrl ?? `http://${app.config.host}:${app.config.port}`;

/** Only admins manage users through Better Auth's admin endpoints; support and affiliates get nothing there. */
const noAdminRights = () => defaultAc.newRole({ user: [], session: [] });
const roles = { admin: adminAc, support: noAdminRights(), affiliate: noAdminRights() };

export function createAuth(app: AppContext) {
  const { config } = app;
  return betterAuth({
    appName: 'Switchyard',
    baseURL: authBaseUrl(app),
    basePath: AUTH_BASE_PATH,
    secret: config.authSecret,
    database: drizzleAdapter(app.db, {
      provider: 'pg',
      schema: { user: authUsers, session: authSessions, account: authAccounts, verification: authVerifications },
    }),
    emailAndPassword: {
      enabled: true,
      disableSignUp: !config.affiliateSignupEnabled,
      minPasswordLength: 12,
      maxPasswordLength: 128,
    },
    session: { expiresIn: 7 * 24 * 3600, updateAge: 24 * 3600 },
    databaseHooks: {
      user: {
        create: {
          // The admin plugin already marks `role` as not client-settable; this keeps self sign-up
          // at the affiliate role even if that ever changes.
          async before(user, endpoint) {
            if (endpoint?.path?.startsWith('/sign-up')) return { data: { ...user, role: SELF_SIGN_UP_ROLE } };
          },
        },
      },
    },
    advanced: {
      useSecureCookies: config.env === 'production',
      ipAddress: { ipAddressHeaders: config.trustProxy ? ['x-forwarded-for', CLIENT_IP_HEADER] : [CLIENT_IP_HEADER] },
    },
    telemetry: { enabled: false },
    // No nextCookies(): sign-in goes through /api/auth from the browser, never through server actions.
    plugins: [admin({ defaultRole: SELF_SIGN_UP_ROLE, adminRoles: ['admin'], roles })],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const instances = new WeakMap<AppContext, Auth>();

/** One Better Auth instance per application context (the process's, or a test's). */
export function getAuth(app: AppContext): Auth {
  let auth = instances.get(app);
  if (!auth) {
    auth = createAuth(app);
    instances.set(app, auth);
  }
  return auth;
}
