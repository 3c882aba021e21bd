import type { AppContext } from '../context';
import type { ExecuteResult } from '../routing/execute';
import { executeResultSchema } from '../schemas/responses';
import type { StatusQuery } from '../schemas/transactions';
import { claimedHash } from '../tracking/hash-claims';
import { findTransaction } from './lookup';

export interface TransactionExecution {
  /** True while the swapper still has to act: pending, and no source transaction known yet. */
  outstanding: boolean;
  /** What execute answered (deposit details or the wallet call); null for swaps executed before it was kept. */
  execution: ExecuteResult | null;
}

/** The execute answer again, for a swapper who left the swap page before sending the deposit or signing. */
export async function getTransactionExecution(ctx: AppContext, query: StatusQuery): Promise<TransactionExecution> {
  const tx = await findTransaction(ctx, query);
  return { outstanding: tx.status === 'PENDING' && !claimedHash(tx), execution: keptAnswer(ctx, tx.id, tx.execution) };
}

/**
 * The stored answer when it has the shape execute answers; else null, as for a swap executed before
 * answers were kept. The column is free-form JSON (imports and the demo dataset write other shapes),
 * and every reader of this answer, the /tx page first, relies on its documented shape.
 */
function keptAnswer(ctx: AppContext, transactionId: string, stored: unknown): ExecuteResult | null {
  if (stored === null || stored === undefined) return null;
  if (executeResultSchema.safeParse(stored).success) return stored as ExecuteResult;
  ctx.log.warn({ transactionId }, 'stored execute answer is not in the shape execute answers; served as none');
  return null;
}
