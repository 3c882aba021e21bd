import { lockActivity } from '../../dashboard/locks';
import { rangeInput } from '../../dashboard/schemas';
import { adminProcedure, router } from '../init';

export const locksRouter = router({
  activity: adminProcedure.input(rangeInput).query(({ ctx, input }) => lockActivity(ctx.app, input)),
});
