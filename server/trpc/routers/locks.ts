import { onReadTarget, sessionFences } from '../../read-context';
import { lockActivity } from '../../routing/lock-activity';
import { rangeInput } from '../../schemas/ranges';
import { adminProcedure, router } from '../init';

export const locksRouter = router({
  activity: adminProcedure
    .input(rangeInput)
    .query(({ ctx, input }) => onReadTarget(ctx.app, (on) => lockActivity(on, input), sessionFences(ctx.viewer))),
});
