import { router, signedInProcedure } from '../init';

export const sessionRouter = router({
  // The session's id stays on the server: it scopes read-your-writes, nothing a page needs.
  me: signedInProcedure.query(({ ctx: { viewer } }) => ({
    userId: viewer.userId,
    email: viewer.email,
    role: viewer.role,
  })),
});
