import { rateLimitActivity } from '../../dashboard/rate-limits';
import { rangeInput } from '../../dashboard/schemas';
import { adminProcedure, router } from '../init';

export const rateLimitsRouter = router({
  activity: adminProcedure.input(rangeInput).query(({ ctx, input }) => rateLimitActivity(ctx.app, input)),
});
