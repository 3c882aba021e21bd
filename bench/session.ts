import { randomBytes } from 'node:crypto';
import { getAuth } from '../server/auth/auth';
import type { Role } from '../server/auth/roles';
import { createUserWithRole } from '../server/auth/users';
import { parseConfig } from '../server/config';
import { createAppContext } from '../server/context';

/** A new user of `role` in the database `env` names, signed in: the session cookie the dashboard sends. */
export async function sessionCookie(env: Record<string, string>, role: Role): Promise<string> {
  const app = createAppContext(parseConfig(env));
  try {
    const email = `bench-${role}-${randomBytes(4).toString('hex')}@switchyard.test`;
    const password = randomBytes(16).toString('hex');
    await createUserWithRole(app, { email, name: `Bench ${role}`, password, role });
    const { headers } = await getAuth(app).api.signInEmail({ body: { email, password }, returnHeaders: true });
    return headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
  } finally {
    await app.close();
  }
}
