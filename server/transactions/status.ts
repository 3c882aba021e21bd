import { createHash } from 'node:crypto';
import { keep } from '../bounded-map';
import { type CatalogSnapshot, freshCatalog, getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import type { MaybePromise } from '../maybe-promise';
import { perKey } from '../per-key';
import type { StatusQuery } from '../schemas/transactions';
import { type AnswerChanges, answerChanges, type KeptStatus, lookupByHashKey, lookupById } from './answer-changes';
import { hashKey } from './keys';
import { findTransactionStatus } from './lookup';
import { type PublicTransaction, presentTransaction } from './present';
import type { StatusFields } from './status-fields';
import { isFinal } from './transitions';

export interface TransactionStatus {
  transaction: PublicTransaction;
  final: boolean;
  /** When a pending swap is usually done (its start plus its route's p90); null once final or without route times. */
  expectedBy: string | null;
}

const presentWith = (catalog: CatalogSnapshot, tx: StatusFields): TransactionStatus => ({
  transaction: presentTransaction(tx, catalog),
  final: isFinal(tx.status),
  expectedBy: !isFinal(tx.status) && tx.expectedBy ? tx.expectedBy.toISOString() : null,
});

/** The status endpoint's `data` for one row; the stream and webhooks send the same object. */
export async function presentStatus(ctx: AppContext, tx: StatusFields): Promise<TransactionStatus> {
  return presentWith(await getCatalog(ctx), tx);
}

/** A status answer made once for a row version: what the endpoint sends, ready to send. */
interface Presented {
  /** Shared between requests: read-only. */
  data: TransactionStatus;
  /** The endpoint's body, `{"data":…}` as JSON. */
  body: string;
  /** Changes whenever the answer does: its validator, quoted as the `ETag` header carries it. */
  etag: string;
}

/**
 * A short tag of some content, the same in every process: the status answer's validator (the same
 * bytes keep their tag whatever wrote the row meanwhile; any change, a new explorer link included,
 * makes a new one) and the status stream's event ids.
 */
export const contentTag = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

const ANSWERS_KEPT = 4096;
const LINK_SETS_KEPT = 2;

/**
 * Answers already made, per set of explorer links (all an answer takes from the catalog), by row
 * version: a wallet polls an unchanged swap many times between two changes of its row, and each of
 * those answers is the same bytes. Oldest dropped first past the bound. A reloaded catalog snapshot
 * (every `catalogCacheMs`) with the same links keeps them; new links start afresh, and the answers of
 * all but the two latest sets are dropped.
 */
const answersByExplorers = perKey((_ctx: AppContext) => new Map<string, Map<string, Presented>>());

function presentedFor(ctx: AppContext, catalog: CatalogSnapshot, version: string, tx: StatusFields): Presented {
  const sets = answersByExplorers(ctx);
  const presented = sets.get(catalog.explorerKey) ?? keep(sets, catalog.explorerKey, new Map(), LINK_SETS_KEPT);
  const answer = presented.get(version);
  if (answer) return answer;
  const data = presentWith(catalog, tx);
  const json = JSON.stringify(data);
  return keep(presented, version, { data, body: `{"data":${json}}`, etag: `"${contentTag(json)}"` }, ANSWERS_KEPT);
}

/**
 * How long a settled transaction looked up by hash may be answered without reading it again, in
 * seconds: a hash can still be vouched for on another swap (see `statusCaching`). By id a settled
 * transaction never changes, so it is kept until the catalog's explorer links do.
 */
export const SETTLED_BY_HASH_MAX_AGE_S = 300;

/**
 * The longest a transaction that can still change is answered from memory. The database announces
 * every change of an answer when it commits and the answer is dropped then (`answerChanges`); this
 * bounds what a connection that died without a word, and so heard nothing, could leave behind.
 */
export const PENDING_KEPT_MS = 10_000;

export interface VersionedStatus extends Presented {
  /**
   * Nothing about this transaction can change any more: it succeeded or was refunded, or it failed
   * longer ago than a refund can still follow.
   */
  settled: boolean;
}

const keptAnswers = (ctx: AppContext) => answerChanges(ctx) as AnswerChanges<VersionedStatus>;

/**
 * An answer is made once per row version and set of explorer links, and kept by lookup: a settled
 * transaction's for good (by hash for `SETTLED_BY_HASH_MAX_AGE_S`), one that can still change until
 * the database announces a change of it (at most `PENDING_KEPT_MS`). Anything else reads the row.
 */
export function getTransactionStatus(ctx: AppContext, query: StatusQuery): MaybePromise<VersionedStatus> {
  const fresh = freshCatalog(ctx);
  const lookup = lookupOf(query);
  return keptStatus(ctx, fresh, lookup) ?? readTransactionStatus(ctx, query, lookup, fresh);
}

/** A kept answer, if there is one: no I/O, and nothing started. */
export function keptTransactionStatus(ctx: AppContext, query: StatusQuery): VersionedStatus | undefined {
  return keptStatus(ctx, freshCatalog(ctx), lookupOf(query));
}

const lookupOf = (query: StatusQuery) =>
  query.transactionId ? lookupById(query.transactionId) : lookupByHashKey(hashKey(query.hash));

function keptStatus(ctx: AppContext, fresh: CatalogSnapshot | undefined, lookup: string) {
  const kept = fresh && keptAnswers(ctx).kept.get(lookup);
  return kept && kept.explorerKey === fresh.explorerKey ? kept.status : undefined;
}

async function readTransactionStatus(
  ctx: AppContext,
  query: StatusQuery,
  lookup: string,
  fresh: CatalogSnapshot | undefined,
): Promise<VersionedStatus> {
  const changes = keptAnswers(ctx);
  const read = changes.kept.beginRead(lookup);
  const listens = changes.listens;
  let kept: { value: KeptStatus<VersionedStatus>; keptUntil: number } | undefined;
  try {
    const { row: tx, fromReplica } = await findTransactionStatus(ctx, query);
    const now = Date.now();
    const refundDeadline =
      tx.status === 'FAILED' && tx.finalizedAt !== null
        ? tx.finalizedAt.getTime() + ctx.config.worker.refundWatchMs
        : Number.POSITIVE_INFINITY;
    const catalog = fresh ?? (await getCatalog(ctx));
    const { data, body, etag } = presentedFor(ctx, catalog, `${tx.id}.${tx.rowVersion}`, tx);
    const settled = tx.status === 'SUCCESS' || tx.status === 'REFUND' || now > refundDeadline;
    const status = { data, body, etag, settled };
    const keepUntil = (keptUntil: number) => ({ value: { status, explorerKey: catalog.explorerKey }, keptUntil });
    if (settled)
      kept = keepUntil(query.transactionId ? Number.POSITIVE_INFINITY : now + SETTLED_BY_HASH_MAX_AGE_S * 1000);
    // Changes heard since before this read began, over the same listening connection. A replica's row may
    // predate a change already heard (its fence raised after the announcement): such an answer is not kept.
    else if (listens > 0 && listens === changes.listens && !fromReplica)
      kept = keepUntil(Math.min(now + PENDING_KEPT_MS, refundDeadline));
    return status;
  } finally {
    changes.kept.finishRead(lookup, read, kept);
  }
}
