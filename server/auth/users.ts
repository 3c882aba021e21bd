import { randomBytes } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { authSessions, authUsers } from '../../drizzle/schema';
import { NO_ORIGIN, type RequestOrigin, recordAudit } from '../audit/record';
import type { AppContext } from '../context';
import { AppError, notFound } from '../errors';
import type { CreateUserInput, SetUserRoleInput, UserIdInput } from '../schemas/users';
import { getAuth } from './auth';
import type { Role, Viewer } from './roles';

const emailTaken = (email: string) =>
  new AppError('VALIDATION_ERROR', `A user with the email ${email} already exists`, {
    field: 'email',
    status: 409,
    retryable: false,
  });

/** Who acts and from where; a command-line action has no actor and no request. */
export interface ActedBy {
  actor: Viewer | null;
  origin: RequestOrigin;
}
const FROM_COMMAND_LINE: ActedBy = { actor: null, origin: NO_ORIGIN };

/**
 * An admin creates a user with a role; Better Auth hashes the password and stores the credential account.
 * Better Auth writes through its own connection, so the audit row follows the created user.
 */
export async function createUserWithRole(app: AppContext, input: CreateUserInput, by: ActedBy = FROM_COMMAND_LINE) {
  const [existing] = await app.db
    .select({ id: authUsers.id })
    .from(authUsers)
    .where(eq(authUsers.email, input.email))
    .limit(1);
  if (existing) throw emailTaken(input.email);
  const { user } = await getAuth(app).api.createUser({
    body: { email: input.email, name: input.name, password: input.password, role: input.role },
  });
  await recordAudit(app.db, {
    action: 'user.create',
    ...by,
    targetId: user.id,
    after: { email: user.email, name: user.name, role: input.role },
  });
  return { id: user.id, email: user.email, name: user.name, role: input.role };
}

export type EnsureAdminOutcome = 'created' | 'already-admin';

/**
 * The first admin, from the command line. Safe to re-run: an admin with that email is left as it
 * is (password included). An account this did not create is never promoted: with unverified
 * emails it may belong to whoever registered the address first.
 */
export async function ensureAdmin(
  app: AppContext,
  input: { email: string; password: string; name: string },
): Promise<{ id: string; outcome: EnsureAdminOutcome }> {
  const email = input.email.trim().toLowerCase();
  const [existing] = await app.db
    .select({ id: authUsers.id, role: authUsers.role })
    .from(authUsers)
    .where(eq(authUsers.email, email))
    .limit(1);
  if (existing?.role === ('admin' satisfies Role)) return { id: existing.id, outcome: 'already-admin' };
  if (existing) {
    throw new AppError(
      'VALIDATION_ERROR',
      `${email} already belongs to an existing ${existing.role} account that this command did not create; it was not promoted. ` +
        'Use another email, or have an existing admin change its role in the dashboard after checking who owns it',
      { field: 'email', status: 409, retryable: false },
    );
  }
  const created = await createUserWithRole(app, { email, name: input.name, password: input.password, role: 'admin' });
  return { id: created.id, outcome: 'created' };
}

export async function listUsers(ctx: AppContext) {
  const rows = await ctx.db
    .select({
      id: authUsers.id,
      name: authUsers.name,
      email: authUsers.email,
      role: authUsers.role,
      banned: authUsers.banned,
      createdAt: authUsers.createdAt,
    })
    .from(authUsers)
    .orderBy(asc(authUsers.email));
  return rows;
}

/**
 * Changes a user's role and signs them out everywhere, so a demotion takes effect at once.
 * An admin cannot demote themselves: that is how the last admin locks everyone out.
 */
export async function setUserRole(ctx: AppContext, actor: Viewer, input: SetUserRoleInput, origin = NO_ORIGIN) {
  if (input.userId === actor.userId && input.role !== 'admin') {
    throw new AppError('VALIDATION_ERROR', 'You cannot remove your own admin role; ask another admin', {
      field: 'role',
      retryable: false,
    });
  }
  return ctx.db.transaction(async (tx) => {
    const [previous] = await tx
      .select({ role: authUsers.role })
      .from(authUsers)
      .where(eq(authUsers.id, input.userId))
      .for('update');
    const [updated] = await tx
      .update(authUsers)
      .set({ role: input.role, updatedAt: new Date() })
      .where(eq(authUsers.id, input.userId))
      .returning({ id: authUsers.id, email: authUsers.email, role: authUsers.role });
    if (!updated) throw notFound('User', 'userId');
    await tx.delete(authSessions).where(eq(authSessions.userId, input.userId));
    await recordAudit(tx, {
      action: 'user.role_change',
      actor,
      origin,
      targetId: updated.id,
      before: { email: updated.email, role: previous?.role ?? null },
      after: { email: updated.email, role: updated.role },
    });
    return updated;
  });
}

/** The admin acting and the request they act with: Better Auth's admin endpoints check that session themselves. */
export interface AdminAction {
  actor: Viewer;
  headers: Headers;
  origin?: RequestOrigin;
}

/** Better Auth's admin endpoints write through their own connection: the audit row follows what they did. */
const recordAdminAction = (
  ctx: AppContext,
  { actor, origin }: AdminAction,
  action: 'user.deactivate' | 'user.reactivate' | 'user.password_reset',
  user: { id: string; email: string },
  change?: { before: Record<string, unknown>; after: Record<string, unknown> },
) =>
  recordAudit(ctx.db, {
    action,
    actor,
    origin,
    targetId: user.id,
    ...change,
    after: { email: user.email, ...change?.after },
  });

async function otherUser(ctx: AppContext, { actor }: AdminAction, userId: string, verb: string) {
  if (userId === actor.userId) {
    throw new AppError('VALIDATION_ERROR', `You cannot ${verb} your own account; ask another admin`, {
      field: 'userId',
      retryable: false,
    });
  }
  const [user] = await ctx.db
    .select({ id: authUsers.id, email: authUsers.email })
    .from(authUsers)
    .where(eq(authUsers.id, userId))
    .limit(1);
  if (!user) throw notFound('User', 'userId');
  return user;
}

/** Deactivates a user: Better Auth refuses their sign-in from now on and ends every session they have. */
export async function deactivateUser(ctx: AppContext, action: AdminAction, { userId }: UserIdInput) {
  const user = await otherUser(ctx, action, userId, 'deactivate');
  await getAuth(ctx).api.banUser({
    body: { userId, banReason: `Deactivated by ${action.actor.email}` },
    headers: action.headers,
  });
  await recordAdminAction(ctx, action, 'user.deactivate', user, { before: { active: true }, after: { active: false } });
  return { ...user, active: false };
}

export async function reactivateUser(ctx: AppContext, action: AdminAction, { userId }: UserIdInput) {
  const user = await otherUser(ctx, action, userId, 'reactivate');
  await getAuth(ctx).api.unbanUser({ body: { userId }, headers: action.headers });
  await recordAdminAction(ctx, action, 'user.reactivate', user, { before: { active: false }, after: { active: true } });
  return { ...user, active: true };
}

/**
 * An admin-issued password reset: a new random password replaces the old one and every session
 * ends. The admin hands the password over privately; it is returned once and stored only hashed.
 */
export async function resetUserPassword(ctx: AppContext, action: AdminAction, { userId }: UserIdInput) {
  const user = await otherUser(ctx, action, userId, 'reset the password of');
  const temporaryPassword = randomBytes(18).toString('base64url');
  const auth = getAuth(ctx);
  await auth.api.setUserPassword({ body: { userId, newPassword: temporaryPassword }, headers: action.headers });
  await auth.api.revokeUserSessions({ body: { userId }, headers: action.headers });
  await recordAdminAction(ctx, action, 'user.password_reset', user);
  return { ...user, temporaryPassword };
}
