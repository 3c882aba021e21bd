import type { AppContext } from '../context';
import { getAuth } from './auth';
import { isRole, type Viewer } from './roles';

/** The signed-in user behind these request headers, or null (no session, banned, or an unknown role). */
export async function getViewer(app: AppContext, headers: Headers): Promise<Viewer | null> {
  const session = await getAuth(app).api.getSession({ headers });
  if (!session) return null;
  const { id, email, role, banned } = session.user;
  if (banned || !isRole(role)) return null;
  return { userId: id, email, role };
}
