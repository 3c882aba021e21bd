import { onReadTarget, sessionFences } from '../../read-context';
import { transactionIdInput, transactionSearchInput } from '../../schemas/transactions';
import { searchTransactions } from '../../transactions/search';
import { getTransactionDetail, pollTransactionNow } from '../../transactions/support';
import { router, supportProcedure } from '../init';

export const transactionsRouter = router({
  search: supportProcedure
    .input(transactionSearchInput)
    .query(({ ctx, input }) => onReadTarget(ctx.app, (on) => searchTransactions(on, input), sessionFences(ctx.viewer))),
  detail: supportProcedure.input(transactionIdInput).query(({ ctx, input }) => getTransactionDetail(ctx.app, input.id)),
  pollNow: supportProcedure
    .input(transactionIdInput)
    .mutation(({ ctx, input }) =>
      pollTransactionNow(ctx.app, { transactionId: input.id, requestedBy: ctx.viewer, origin: ctx.origin }),
    ),
});
