import { eq } from 'drizzle-orm';
import { authUsers } from '../../drizzle/schema';
import type { AppContext } from '../context';
import type { CreateUserInput } from '../dashboard/schemas';
import { AppError } from '../errors';
import { getAuth } from './auth';
import type { Role } from './roles';

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

/** The first admin, from the command line. Idempotent: an existing user with that email is promoted instead. */
export async function ensureAdmin(
  app: AppContext,
  input: { email: string; password: string; name: string },
): Promise<{ id: string; created: boolean }> {
  const email = input.email.trim().toLowerCase();
  const [existing] = await app.db.select().from(authUsers).where(eq(authUsers.email, email)).limit(1);
  if (existing) {
    await app.db
      .update(authUsers)
      .set({ role: 'admin' satisfies Role, updatedAt: new Date() })
      .where(eq(authUsers.id, existing.id));
    return { id: existing.id, created: false };
  }
  const created = await createUserWithRole(app, { email, name: input.name, password: input.password, role: 'admin' });
  return { id: created.id, created: true };
}
