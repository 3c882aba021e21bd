import { operationsOverview } from '../../observability/operations';
import { operationsTrends } from '../../observability/trends';
import { rangeInput } from '../../schemas/ranges';
import { adminProcedure, router } from '../init';

export const operationsRouter = router({
  overview: adminProcedure.query(({ ctx }) => operationsOverview(ctx.app)),
  trends: adminProcedure.input(rangeInput).query(({ ctx, input }) => operationsTrends(ctx.app, input)),
});
