import { getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import type { StatusQuery } from '../schemas/transactions';
import { findTransactionStatus } from './lookup';
import { type PublicTransaction, presentTransaction } from './present';
import type { StatusFields } from './status-fields';
import { isFinal } from './transitions';

/** Bumped when the status representation changes shape, so validators from before never match. */
const REPRESENTATION = 'v2';

export interface TransactionStatus {
  transaction: PublicTransaction;
  final: boolean;
}

/** The status endpoint's `data` for one row; the stream and webhooks send the same object. */
export async function presentStatus(ctx: AppContext, tx: StatusFields): Promise<TransactionStatus> {
  return { transaction: presentTransaction(tx, await getCatalog(ctx)), final: isFinal(tx.status) };
}

export interface VersionedStatus {
  data: TransactionStatus;
  /** Changes whenever the row does: a validator for the answer. */
  version: string;
  /**
   * Nothing about this transaction can change any more: it succeeded or was refunded, or it failed
   * longer ago than a refund can still follow.
   */
  settled: boolean;
}

export async function getTransactionStatus(ctx: AppContext, query: StatusQuery): Promise<VersionedStatus> {
  const tx = await findTransactionStatus(ctx, query);
  const refundWindowOver =
    tx.status === 'FAILED' &&
    tx.finalizedAt !== null &&
    Date.now() - tx.finalizedAt.getTime() > ctx.config.worker.refundWatchMs;
  return {
    data: await presentStatus(ctx, tx),
    version: `${REPRESENTATION}.${tx.id}.${tx.rowVersion}`,
    settled: tx.status === 'SUCCESS' || tx.status === 'REFUND' || refundWindowOver,
  };
}
