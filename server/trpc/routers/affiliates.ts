import { affiliateOverview } from '../../affiliates/attribution';
import { createReferralCode, listAffiliates } from '../../affiliates/codes';
import { affiliateStatement } from '../../affiliates/statement';
import { onReadTarget, sessionFences } from '../../read-context';
import { affiliateStatementInput, affiliateStatsInput, createReferralCodeInput } from '../../schemas/affiliates';
import { adminProcedure, affiliateProcedure, router } from '../init';

export const affiliatesRouter = router({
  overview: affiliateProcedure
    .input(affiliateStatsInput)
    .query(({ ctx, input }) =>
      onReadTarget(ctx.app, (on) => affiliateOverview(on, ctx.viewer, input), sessionFences(ctx.viewer)),
    ),
  statement: affiliateProcedure
    .input(affiliateStatementInput)
    .query(({ ctx, input }) =>
      onReadTarget(ctx.app, (on) => affiliateStatement(on, ctx.viewer, input), sessionFences(ctx.viewer)),
    ),
  createCode: affiliateProcedure
    .input(createReferralCodeInput)
    .mutation(({ ctx, input }) => createReferralCode(ctx.app, ctx.viewer, input, ctx.origin)),
  list: adminProcedure.query(({ ctx }) => listAffiliates(ctx.app)),
});
