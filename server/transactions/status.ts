import { type CatalogSnapshot, freshCatalog, getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import { perKey } from '../per-key';
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

const presentWith = (catalog: CatalogSnapshot, tx: StatusFields): TransactionStatus => ({
  transaction: presentTransaction(tx, catalog),
  final: isFinal(tx.status),
});

/** The status endpoint's `data` for one row; the stream and webhooks send the same object. */
export async function presentStatus(ctx: AppContext, tx: StatusFields): Promise<TransactionStatus> {
  return presentWith(await getCatalog(ctx), tx);
}

/** A status answer made once for a row version: the data (shared, read-only) and its JSON. */
interface Presented {
  data: TransactionStatus;
  json: string;
}

/**
 * Answers already made, by row version, per catalog snapshot (the explorer links come from the
 * catalog): a wallet polls an unchanged swap many times between two changes of its row, and each of
 * those answers is the same bytes. Oldest dropped first past the bound; a new snapshot (every
 * `catalogCacheMs`) starts afresh and the old one goes with its snapshot.
 */
const presentedByCatalog = perKey((_catalog: CatalogSnapshot) => new Map<string, Presented>());
const PRESENTED_PER_SNAPSHOT = 4096;

function presentedFor(catalog: CatalogSnapshot, version: string, tx: StatusFields): Presented {
  const presented = presentedByCatalog(catalog);
  let answer = presented.get(version);
  if (!answer) {
    const data = presentWith(catalog, tx);
    answer = { data, json: JSON.stringify(data) };
    if (presented.size >= PRESENTED_PER_SNAPSHOT) presented.delete(presented.keys().next().value as string);
    presented.set(version, answer);
  }
  return answer;
}

export interface VersionedStatus {
  data: TransactionStatus;
  /** `data` as JSON. */
  json: string;
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
  const version = `${REPRESENTATION}.${tx.id}.${tx.rowVersion}`;
  const { data, json } = presentedFor(freshCatalog(ctx) ?? (await getCatalog(ctx)), version, tx);
  return {
    data,
    json,
    version,
    settled: tx.status === 'SUCCESS' || tx.status === 'REFUND' || refundWindowOver,
  };
}
