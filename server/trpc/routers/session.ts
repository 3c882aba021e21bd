import { router, signedInProcedure } from '../init';

export const sessionRouter = router({
  me: signedInProcedure.query(({ ctx }) => ctx.viewer),
});
