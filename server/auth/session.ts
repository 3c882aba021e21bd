import type { AppContext } from '../context';
import { AppError, toAppError } from '../errors';
import { getAuth } from './auth';
import { isRole, type Viewer } from './roles';

/** The signed-in user behind these request headers, or null (no session, banned, or an unknown role). */
export async function getViewer(app: AppContext, headers: Headers): Promise<Viewer | null> {
  // Better Auth wraps a failed lookup with the query and its parameters (the token) in the message:
  // it is logged redacted here, and what propagates (to Next's own error logging too) carries none of it.
  const session = await getAuth(app)
    .api.getSession({ headers })
    .catch((error) => {
      const { code, message, status } = toAppError(error);
      app.log.error({ err: error }, 'session lookup failed');
      throw new AppError(code, message, { status });
    });
  if (!session) return null;
  const { id, email, role, banned } = session.user;
  if (banned || !isRole(role)) return null;
  return { userId: id, email, role, sessionId: session.session.id };
}
