import type { AppContext } from '../context';
import { toAppError } from '../errors';
import { getAuth } from './auth';
import { isRole, type Viewer } from './roles';

/** The signed-in user behind these request headers, or null (no session, banned, or an unknown role). */
export async function getViewer(app: AppContext, headers: Headers): Promise<Viewer | null> {
  // Better Auth wraps a failed lookup with the query and its parameters (the token) in the message.
  const session = await getAuth(app)
    .api.getSession({ headers })
    .catch((error) => {
      throw toAppError(error);
    });
  if (!session) return null;
  const { id, email, role, banned } = session.user;
  if (banned || !isRole(role)) return null;
  return { userId: id, email, role };
}
