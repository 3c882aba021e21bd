import type { transactions } from '../../drizzle/schema';
import { getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import type { StatusQuery } from '../schemas/transactions';
import { findTransaction } from './lookup';
import { type PublicTransaction, presentTransaction } from './present';
import { isFinal } from './transitions';

export interface TransactionStatus {
  transaction: PublicTransaction;
  final: boolean;
}

/** The status endpoint's `data` for one row; the stream and webhooks send the same object. */
export async function presentStatus(ctx: AppContext, tx: typeof transactions.$inferSelect): Promise<TransactionStatus> {
  return { transaction: presentTransaction(tx, await getCatalog(ctx)), final: isFinal(tx.status) };
}

export async function getTransactionStatus(ctx: AppContext, query: StatusQuery): Promise<TransactionStatus> {
  return presentStatus(ctx, await findTransaction(ctx, query));
}
