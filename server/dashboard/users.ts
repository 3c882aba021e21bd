import { asc, eq } from 'drizzle-orm';
import { authSessions, authUsers } from '../../drizzle/schema';
import type { Viewer } from '../auth/roles';
import type { AppContext } from '../context';
import { AppError, notFound } from '../errors';
import type { SetUserRoleInput } from './schemas';

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
