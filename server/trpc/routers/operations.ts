import { operationsOverview } from '../../observability/operations';
import { operationsTrends } from '../../observability/trends';
import { onReadTarget, sessionFences } from '../../read-context';
import { rangeInput } from '../../schemas/ranges';
import { adminProcedure, router } from '../init';

export const operationsRouter = router({
  overview: adminProcedure.query(({ ctx }) => onReadTarget(ctx.app, operationsOverview, sessionFences(ctx.viewer))),
  trends: adminProcedure
    .input(rangeInput)
    .query(({ ctx, input }) => onReadTarget(ctx.app, (on) => operationsTrends(on, input), sessionFences(ctx.viewer))),
});
