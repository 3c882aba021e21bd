import type postgres from 'postgres';
import { csvRecord } from './csv';

export interface CsvExport {
  /** Rows the body will hold, counted in the same snapshot it is read from. */
  total: number;
  filename: string;
  body: ReadableStream<Uint8Array>;
}

export interface CsvQuery {
  header: readonly string[];
  /** One number: how many rows `rows` returns. */
  count: (sql: postgres.ReservedSql) => postgres.PendingQuery<postgres.Row[]>;
  /** Each row as the header's values in order, text or null. */
  rows: (sql: postgres.ReservedSql) => postgres.PendingQuery<postgres.Row[]>;
}

/** `transactions-20261129T100511Z.csv` */
export const exportFilename = (kind: string, now: Date) =>
  `${kind}-${now.toISOString().slice(0, 19).replaceAll(/[-:]/g, '')}Z.csv`;

/** What pg_stat_activity names a connection by while it serves an export. */
export const EXPORT_APPLICATION_NAME = 'switchyard-export';

/** Rows fetched per round trip: one chunk of the body. */
export const EXPORT_BATCH_ROWS = 1000;

/**
 * Counts and then streams a query as CSV through a cursor, in one read-only snapshot so the count is
 * the body's row count. The body is pulled: the next batch is fetched only once the reader (the
 * socket, through Next) has taken the last, so a slow client holds the query back rather than
 * filling memory. Cancelling the body (the client went away) or `signal` closes the cursor and
 * ends the transaction; the connection is released either way.
 */
export async function openCsvExport(
  sql: postgres.Sql,
  query: CsvQuery,
  filename: string,
  signal?: AbortSignal,
): Promise<CsvExport> {
  const conn = await sql.reserve();
  let ended: Promise<void> | undefined;
  let batches: AsyncIterator<postgres.Row[][]> | undefined;
  let fetching: Promise<unknown> = Promise.resolve();
  // After the batch in flight (postgres.js can only close a cursor between batches).
  const end = () => {
    ended ??= fetching
      .catch(() => {})
      .then(async () => {
        await batches?.return?.();
        await conn`rollback`;
      })
      .catch(() => {})
      .finally(() => conn.release());
    return ended;
  };
  let total: number;
  try {
    await conn`begin isolation level repeatable read read only`;
    await conn`select set_config('application_name', ${EXPORT_APPLICATION_NAME}, true)`;
    const [counted] = await query.count(conn).values();
    total = Number(counted?.[0] ?? 0);
  } catch (error) {
    await end();
    throw error;
  }
  signal?.addEventListener('abort', end, { once: true });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(csvRecord(query.header)));
      },
      async pull(controller) {
        if (ended) return;
        batches ??= query.rows(conn).values().cursor(EXPORT_BATCH_ROWS)[Symbol.asyncIterator]();
        const next = batches.next();
        fetching = next;
        try {
          const batch = await next;
          if (ended) return;
          if (batch.done) {
            await end();
            controller.close();
            return;
          }
          let text = '';
          for (const row of batch.value) text += csvRecord(row as unknown as (string | null)[]);
          controller.enqueue(encoder.encode(text));
        } catch (error) {
          await end();
          controller.error(error);
        }
      },
      cancel: end,
    },
    { highWaterMark: 1 },
  );
  return { total, filename, body };
}

/** A CSV small enough to have been made whole (a summary), served as an export is. */
export function csvFromRecords(
  header: readonly string[],
  records: readonly (readonly (string | null)[])[],
  filename: string,
): CsvExport {
  const text = csvRecord(header) + records.map(csvRecord).join('');
  return { total: records.length, filename, body: new Blob([text]).stream() };
}
