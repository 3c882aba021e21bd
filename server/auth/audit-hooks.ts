import { type createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api';
import { requestOrigin } from '../audit/origin';
import { recordAudit } from '../audit/record';
import type { AppContext } from '../context';
import { newRequestId } from '../ids';
import { signInFailures } from '../observability/registry';
import { AUTH_CLIENT_IP_HEADER } from '../ratelimit/client';

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

const EMAIL_MAX = 320;

/** The address our auth handler vouched for (AUTH_CLIENT_IP_HEADER); a direct server-side call has none. */
function originOf(ctx: HookContext) {
  const headers = new Headers(ctx.headers);
  return requestOrigin(headers, headers.get(AUTH_CLIENT_IP_HEADER), newRequestId());
}

/** The email a sign-in body tried, as the audit log keeps it. */
export const triedEmail = (body: unknown) => {
  const email = (body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase().slice(0, EMAIL_MAX) : undefined;
};

/** A user acting on their own account, with the role they hold now. */
const recordOwnAction = (
  app: AppContext,
  ctx: HookContext,
  action: 'auth.sign_in' | 'auth.sign_out' | 'user.create',
  user: { id: string; email: string; role?: unknown },
  after?: Record<string, unknown>,
) =>
  recordAudit(app.db, {
    action,
    actor: { userId: user.id, email: user.email, role: String(user.role) },
    origin: originOf(ctx),
    targetId: user.id,
    after,
  });

/** Before Better Auth ends the session, while it still names who is signing out. */
export async function auditBeforeAuth(app: AppContext, ctx: HookContext) {
  if (ctx.path !== '/sign-out') return;
  const current = await getSessionFromCtx(ctx).catch(() => null);
  if (!current) return;
  await recordOwnAction(app, ctx, 'auth.sign_out', current.user);
}

/** A self sign-up (the account it created), or a sign-in's outcome: the session it opened, or the refusal (and the email tried) for brute-force detection. */
export async function auditAfterAuth(app: AppContext, ctx: HookContext) {
  const opened = ctx.context.newSession;
  if (ctx.path.startsWith('/sign-up') && opened) {
    await recordOwnAction(app, ctx, 'user.create', opened.user, { email: opened.user.email, role: opened.user.role });
    return;
  }
  if (!ctx.path.startsWith('/sign-in')) return;
  if (opened) {
    await recordOwnAction(app, ctx, 'auth.sign_in', opened.user);
    return;
  }
  if (!isAPIError(ctx.context.returned)) return;
  signInFailures.inc();
  await recordAudit(app.db, {
    action: 'auth.sign_in_failed',
    actor: null,
    actorEmail: triedEmail(ctx.body),
    origin: originOf(ctx),
    after: { reason: ctx.context.returned.body?.code ?? ctx.context.returned.status },
  });
}
