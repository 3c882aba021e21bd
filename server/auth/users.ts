import { randomBytes } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { authSessions, authUsers } from '../../drizzle/schema';
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

/** An admin creates a user with a role; Better Auth hashes the password and stores the credential account. */
export async function createUserWithRole(app: AppContext, input: CreateUserInput) {
  const [existing] = await app.db
    .select({ id: authUsers.id })
    .from(authUsers)
    .where(eq(authUsers.email, input.email))
    .limit(1);
  if (existing) throw emailTaken(input.email);
  const { user } = await getAuth(app).api.createUser({
    body: { email: input.email, name: input.name, password: input.password, role: input.role },
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
export async function setUserRole(ctx: AppContext, actor: Viewer, input: SetUserRoleInput) {
  if (input.userId === actor.userId && input.role !== 'admin') {
    throw new AppError('VALIDATION_ERROR', 'You cannot remove your own admin role; ask another admin', {
      field: 'role',
      retryable: false,
    });
  }
  return ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(authUsers)
      .set({ role: input.role, updatedAt: new Date() })
      .where(eq(authUsers.id, input.userId))
      .returning({ id: authUsers.id, email: authUsers.email, role: authUsers.role });
    if (!updated) throw notFound('User', 'userId');
    await tx.delete(authSessions).where(eq(authSessions.userId, input.userId));
    return updated;
  });
}

/** The admin acting and the request they act with: Better Auth's admin endpoints check that session themselves. */
export interface AdminAction {
  actor: Viewer;
  headers: Headers;
}

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
  return { ...user, active: false };
}

export async function reactivateUser(ctx: AppContext, action: AdminAction, { userId }: UserIdInput) {
  const user = await otherUser(ctx, action, userId, 'reactivate');
  await getAuth(ctx).api.unbanUser({ body: { userId }, headers: action.headers });
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
  return { ...user, temporaryPassword };
}
