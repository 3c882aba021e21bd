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
  /** Each row as the header's values in order, text or null (or as `around` takes it). */
  rows: (sql: postgres.ReservedSql) => postgres.PendingQuery<postgres.Row[]>;
  /** Records written around the rows: each row as the records it becomes (itself, reshaped, with any before it), then `end`'s. */
  around?: CsvAround;
}

export type CsvValues = readonly (string | null)[];

export interface CsvAround {
  row(values: CsvValues): CsvValues[];
  end(): CsvValues[];
  /** How many records `around` adds to the rows' own: part of the total sent first. */
  added: number;
}

/** `transactions-20261129T100511Z.csv` */
export const exportFilename = (kind: string, now: Date) =>
  `${kind}-${now.toISOString().slice(0, 19).replaceAll(/[-:]/g, '')}Z.csv`;

/** What pg_stat_activity names a connection by while it serves an export. */
export const EXPORT_APPLICATION_NAME = 'switchyard-export';

/**
 * Rows fetched per round trip. Read in-process, a 1,000-row batch outlived two scavenges: ~3.4 MB promoted
 * at each, old space growing until a full collection (RSS +60 MB over 300k rows, 2.8 s); at 250 rows
 * 0.2–0.7 MB are promoted and the rows die young.
 */
export const EXPORT_BATCH_ROWS = 250;

/** Characters per chunk of the body, under V8's large-object size (128 KiB), so a chunk's text dies young too. */
const CHUNK_CHARS = 32 * 1024;

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
    total = Number(counted?.[0] ?? 0) + (query.around?.added ?? 0);
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
            const last = query.around?.end() ?? [];
            if (last.length) controller.enqueue(encoder.encode(last.map(csvRecord).join('')));
            controller.close();
            return;
          }
          let text = '';
          for (const row of batch.value) {
            const values = row as unknown as CsvValues;
            if (!query.around) text += csvRecord(values);
            else for (const record of query.around.row(values)) text += csvRecord(record);
            if (text.length >= CHUNK_CHARS) {
              controller.enqueue(encoder.encode(text));
              text = '';
            }
          }
          if (text) controller.enqueue(encoder.encode(text));
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
