import type { AppContext } from '../context';
import type { ExecuteResult } from '../routing/execute';
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
  return { outstanding: tx.status === 'PENDING' && !claimedHash(tx), execution: tx.execution as ExecuteResult | null };
}
