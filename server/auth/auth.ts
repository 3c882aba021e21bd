import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { admin } from 'better-auth/plugins';
import { adminAc, defaultAc } from 'better-auth/plugins/admin/access';
import { eq } from 'drizzle-orm';
import { authAccounts, authSessions, authUsers, authVerifications } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { perKey } from '../per-key';
import { AUTH_CLIENT_IP_HEADER } from '../ratelimit/client';
import { auditAfterAuth, auditBeforeAuth } from './audit-hooks';
import { authLogger } from './logging';
import { type Role, SELF_SIGN_UP_ROLE } from './roles';

export const AUTH_BASE_PATH = '/api/auth';

export const authBaseUrl = (app: AppContext) =>
  app.config.publicBaseUrl ?? `http://${app.config.host}:${app.config.port}`;

/** Only admins manage users through Better Auth's admin endpoints; support and affiliates get nothing there. */
const noAdminRights = () => defaultAc.newRole({ user: [], session: [] });
const roles = { admin: adminAc, support: noAdminRights(), affiliate: noAdminRights() };

/**
 * Roles change only through the dashboard's users procedures, which also sign the user out
 * everywhere; the admin plugin's own endpoints would change a role and leave old sessions alive.
 */
const CLOSED_ADMIN_PATHS = ['/admin/set-role', '/admin/update-user'];

/**
 * Self sign-up opens only once an admin exists: emails are not verified, so before that anyone
 * could register the address an operator is about to make admin.
 */
export async function selfSignUpOpen(app: AppContext): Promise<boolean> {
  if (!app.config.affiliateSignupEnabled) return false;
  const [admin] = await app.db
    .select({ id: authUsers.id })
    .from(authUsers)
    .where(eq(authUsers.role, 'admin' satisfies Role))
    .limit(1);
  return !!admin;
}

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
    disabledPaths: CLOSED_ADMIN_PATHS,
    // Better Auth's own per-address limiter, kept in each process's memory; a refusal is audited in handler.ts.
    rateLimit: {
      enabled: config.signInRateLimit.enabled ?? config.env === 'production',
      customRules: { '/sign-in/*': config.signInRateLimit.rule, '/sign-up/*': config.signInRateLimit.rule },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path.startsWith('/sign-up') && !(await selfSignUpOpen(app))) {
          throw new APIError('FORBIDDEN', {
            message: config.affiliateSignupEnabled
              ? 'Sign-up opens once an administrator account exists'
              : 'Affiliate sign-up is closed',
          });
        }
        await auditBeforeAuth(app, ctx);
      }),
      after: createAuthMiddleware((ctx) => auditAfterAuth(app, ctx)),
    },
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
      ipAddress: { ipAddressHeaders: [AUTH_CLIENT_IP_HEADER], ipv6Subnet: 64 },
    },
    telemetry: { enabled: false },
    logger: authLogger(app),
    // Errors that are not Better Auth's own reach our handler instead of its console fallback.
    onAPIError: { throw: true },
    // No nextCookies(): sign-in goes through /api/auth from the browser, never through server actions.
    plugins: [admin({ defaultRole: SELF_SIGN_UP_ROLE, adminRoles: ['admin'], roles })],
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** One Better Auth instance per application context (the process's, or a test's). */
export const getAuth: (app: AppContext) => Auth = perKey(createAuth);
