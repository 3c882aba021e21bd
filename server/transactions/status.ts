import type { AppContext } from '../context';
import type { StatusQuery } from '../schemas/transactions';
import { findTransaction } from './lookup';
import { type PublicTransaction, presentTransaction } from './present';
import { isFinal } from './transitions';

export async function getTransactionStatus(
  ctx: AppContext,
  query: StatusQuery,
): Promise<{ transaction: PublicTransaction; final: boolean }> {
  const tx = await findTransaction(ctx, query);
  return { transaction: presentTransaction(tx), final: isFinal(tx.status) };
}
