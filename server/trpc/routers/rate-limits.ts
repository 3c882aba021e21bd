import { rateLimitActivity } from '../../ratelimit/activity';
import { rangeInput } from '../../schemas/ranges';
import { adminProcedure, router } from '../init';

export const rateLimitsRouter = router({
  activity: adminProcedure.input(rangeInput).query(({ ctx, input }) => rateLimitActivity(ctx.app, input)),
});
