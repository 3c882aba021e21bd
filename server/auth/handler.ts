import { getAppContext } from '../context';
import { getAuth } from './auth';

/** Better Auth's HTTP endpoints (sign-in, sign-up, sign-out, session, admin) for the process context. */
export const handleAuthRequest = (request: Request) => getAuth(getAppContext()).handler(request);
