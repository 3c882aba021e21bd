import { transactionIdInput, transactionSearchInput } from '../../dashboard/schemas';
import { getTransactionDetail, pollTransactionNow, searchTransactions } from '../../dashboard/transactions';
import { router, supportProcedure } from '../init';

export const transactionsRouter = router({
  search: supportProcedure.input(transactionSearchInput).query(({ ctx, input }) => searchTransactions(ctx.app, input)),
  detail: supportProcedure.input(transactionIdInput).query(({ ctx, input }) => getTransactionDetail(ctx.app, input.id)),
  pollNow: supportProcedure
    .input(transactionIdInput)
    .mutation(({ ctx, input }) =>
      pollTransactionNow(ctx.app, { transactionId: input.id, requestedBy: ctx.viewer.email }),
    ),
});
