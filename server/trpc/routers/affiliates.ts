import { affiliateOverview, createReferralCode, listAffiliates } from '../../dashboard/affiliates';
import { affiliateStatsInput, createReferralCodeInput } from '../../dashboard/schemas';
import { adminProcedure, affiliateProcedure, router } from '../init';

export const affiliatesRouter = router({
  overview: affiliateProcedure
    .input(affiliateStatsInput)
    .query(({ ctx, input }) => affiliateOverview(ctx.app, ctx.viewer, input)),
  createCode: affiliateProcedure
    .input(createReferralCodeInput)
    .mutation(({ ctx, input }) => createReferralCode(ctx.app, ctx.viewer.userId, input)),
  list: adminProcedure.query(({ ctx }) => listAffiliates(ctx.app)),
});
