import { affiliateOverview } from '../../affiliates/attribution';
import { createReferralCode, listAffiliates } from '../../affiliates/codes';
import { onReadTarget, sessionFences } from '../../read-context';
import { affiliateStatsInput, createReferralCodeInput } from '../../schemas/affiliates';
import { adminProcedure, affiliateProcedure, router } from '../init';

export const affiliatesRouter = router({
  overview: affiliateProcedure
    .input(affiliateStatsInput)
    .query(({ ctx, input }) =>
      onReadTarget(ctx.app, (on) => affiliateOverview(on, ctx.viewer, input), sessionFences(ctx.viewer)),
    ),
  createCode: affiliateProcedure
    .input(createReferralCodeInput)
    .mutation(({ ctx, input }) => createReferralCode(ctx.app, ctx.viewer, input, ctx.origin)),
  list: adminProcedure.query(({ ctx }) => listAffiliates(ctx.app)),
});
