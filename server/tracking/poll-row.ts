import { and, eq, sql } from 'drizzle-orm';
import { transactions } from '../../drizzle/schema';
import { keep } from '../bounded-map';
import type { AppContext } from '../context';
import { perKey } from '../per-key';

export type TransactionRow = typeof transactions.$inferSelect;

/** The columns a poll reads: what the provider is asked with, and what an answer is compared against. */
const POLL_FIELDS = [
  'id',
  'provider',
  'status',
  'substatus',
  'stale',
  'finalizedAt',
  'createdAt',
  'trackingContext',
  'hash',
  'hashKey',
  'inboundHash',
  'inboundHashKey',
  'outboundHash',
  'outboundHashKey',
  'hashVerifiedAt',
  'walletAddress',
  'recipientWalletAddress',
  'srcAsset',
  'dstAsset',
  'srcAmountBase',
  'dstAmountBase',
  'dstAmount',
  'feeAmount',
  'feeCurrency',
  'feeAmountUsd',
  'feeDetails',
  'pollErrors',
  'lastUpstreamState',
] as const satisfies readonly (keyof TransactionRow)[];

export type PollFields = Pick<TransactionRow, (typeof POLL_FIELDS)[number]>;
/** A row as a poll reads it, with its version: Postgres' `xmin`, which every update of the row changes. */
export type PollRow = PollFields & { rowVersion: string };

/** The poll's columns as a selection, built once (drizzle walks a selection's columns on every query). */
export const pollColumns = Object.fromEntries(POLL_FIELDS.map((field) => [field, transactions[field]])) as {
  [F in (typeof POLL_FIELDS)[number]]: (typeof transactions)[F];
};

const preparePollRead = (ctx: AppContext) =>
  ctx.db
    .select({ ...pollColumns, rowVersion: sql<string>`${transactions}.xmin::text`.as('row_version') })
    .from(transactions)
    .where(eq(transactions.id, sql.placeholder('id')))
    .limit(1)
    .prepare('tx_poll_read');

const pollRead = perKey(preparePollRead);

/** The worker's hottest read: only the columns a poll uses, so none of the row's large JSON is decoded. */
export async function readForPoll(ctx: AppContext, id: string): Promise<PollRow | undefined> {
  const [row] = await pollRead(ctx).execute({ id });
  return row as PollRow | undefined;
}

/**
 * Counts a poll and sets the next one, only if the row is still the version the poll read. The
 * transaction itself did not change, so `updatedAt` (public) stays: its status answer, and the
 * answer's ETag, stay the same bytes until something a client can see changes.
 */
const prepareQuietPoll = (ctx: AppContext) =>
  ctx.db
    .update(transactions)
    .set({
      pollAttempts: sql`${transactions.pollAttempts} + 1`,
      pollErrors: 0,
      lastPolledAt: sql`now()`,
      lastPollError: null,
      nextPollAt: sql`${sql.placeholder('next')}::timestamptz`,
    })
    .where(
      and(eq(transactions.id, sql.placeholder('id')), sql`${transactions}.xmin::text = ${sql.placeholder('version')}`),
    )
    .returning({ rowVersion: sql<string>`${transactions}.xmin::text` })
    .prepare('tx_quiet_poll');

const quietPoll = perKey(prepareQuietPoll);

/**
 * The common poll that learns nothing new costs one write beside the read: no row lock, no
 * transaction. It applies only while nobody wrote the row since it was read, and answers the row's
 * new version; otherwise (undefined) the caller takes the locked path.
 */
export async function recordQuietPoll(
  ctx: AppContext,
  tx: PollRow,
  nextPollAt: Date | null,
): Promise<string | undefined> {
  const [written] = await quietPoll(ctx).execute({
    id: tx.id,
    version: tx.rowVersion,
    next: nextPollAt?.toISOString() ?? null,
  });
  return (written as { rowVersion: string } | undefined)?.rowVersion;
}

/** The BullMQ run a poll is: its job's start count, which says whether another worker ran the job since. */
export interface TrackingRun {
  attempt: number;
}

/** Rows remembered per worker process as its own quiet polls wrote them; the oldest dropped first past this. */
const ROWS_REMEMBERED = 10_000;
/**
 * A row whose next run was due this long ago and has not come back to this worker went to another
 * worker (whose write makes it out of date anyway) or is far behind: dropped, so a fleet's rows do
 * not pile up to the bound in every worker.
 */
export const REMEMBERED_PAST_DUE_MS = 60_000;
/** How often remembering a row also drops the past-due ones (one pass over the map). */
const PAST_DUE_SWEEP_MS = 10_000;

interface Remembered {
  row: PollRow;
  attempt: number;
  dueAt: number;
}

const rememberedRows = perKey((_ctx: AppContext) => ({ rows: new Map<string, Remembered>(), sweptAt: 0 }));

/** How many rows this worker holds for its jobs' next runs. */
export const rememberedRowCount = (ctx: AppContext) => rememberedRows(ctx).rows.size;

/**
 * The row as this worker's last poll of it wrote it, if that poll was the job's previous run, so no
 * other worker has polled it since. Anybody else's write since then still makes it out of date,
 * which the quiet write's version check finds. Taken out: kept again only by the next quiet write.
 */
export function takeRememberedRow(ctx: AppContext, transactionId: string, run: TrackingRun | undefined) {
  const { rows } = rememberedRows(ctx);
  const remembered = rows.get(transactionId);
  if (!remembered) return undefined;
  // Any poll of the transaction makes the row out of date, one outside a job too.
  rows.delete(transactionId);
  return run && remembered.attempt + 1 === run.attempt ? remembered.row : undefined;
}

/** Keeps the row as this run's quiet poll wrote it, for the job's next run on this worker (due at `dueAt`). */
export function rememberRow(ctx: AppContext, row: PollRow, run: TrackingRun, dueAt: Date, now = Date.now()) {
  const kept = rememberedRows(ctx);
  if (now - kept.sweptAt >= PAST_DUE_SWEEP_MS) {
    kept.sweptAt = now;
    for (const [id, remembered] of kept.rows) {
      if (remembered.dueAt + REMEMBERED_PAST_DUE_MS < now) kept.rows.delete(id);
    }
  }
  keep(kept.rows, row.id, { row, attempt: run.attempt, dueAt: dueAt.getTime() }, ROWS_REMEMBERED);
}
