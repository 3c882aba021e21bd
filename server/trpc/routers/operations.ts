import { operationsOverview } from '../../observability/operations';
import { adminProcedure, router } from '../init';

export const operationsRouter = router({
  overview: adminProcedure.query(({ ctx }) => operationsOverview(ctx.app)),
});
