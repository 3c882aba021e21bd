import type { Readable } from 'node:stream';
import type postgres from 'postgres';
import { csvRecord, recordEnds } from './csv';

export interface CsvExport {
  /** Rows the body will hold, counted in the same snapshot it is read from. */
  total: number;
  filename: string;
  body: ReadableStream<Uint8Array>;
}

/** A statement as drizzle's `toSQL()` gives it: text with `$n` placeholders, and their values. */
export interface CsvStatement {
  sql: string;
  params: readonly unknown[];
}

export interface CsvQuery {
  header: readonly string[];
  /** One number: how many rows `rows` returns. */
  count: (sql: postgres.ReservedSql) => postgres.PendingQuery<postgres.Row[]>;
  /**
   * The rows, each as the header's values in order, text or null. `copy`: a statement whose values are
   * already spreadsheet-safe (`csvText`), copied out by Postgres as CSV, in constant memory at the speed
   * of `psql \copy`. `batches`: a query read through a cursor and written cell by cell here, for exports
   * whose rows `around` reshapes or whose filters are postgres.js fragments (small ones: an audit log,
   * an affiliate's statement).
   */
  rows: { copy: CsvStatement } | { batches: (sql: postgres.ReservedSql) => postgres.PendingQuery<postgres.Row[]> };
  /** Records written around the rows (`batches` only): each row as the records it becomes (itself, reshaped, with any before it), then `end`'s. */
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

/** Rows fetched per round trip by the `batches` reader. */
export const EXPORT_BATCH_ROWS = 250;

/** Bytes per chunk of the body: under V8's large-object size (128 KiB), and few enough writes to the socket. */
const CHUNK_BYTES = 64 * 1024;

/** COPY … CSV ends each record with LF; RFC 4180 with CRLF. An LF inside a quoted field is data and stays. */
export function crlfRecords(): (chunk: Buffer) => Buffer {
  const state = { inQuotes: false };
  return (chunk) => {
    const ends = recordEnds(chunk, state);
    if (!ends.length) return chunk;
    const out = Buffer.allocUnsafe(chunk.length + ends.length);
    let from = 0;
    let to = 0;
    for (const lf of ends) {
      to += chunk.copy(out, to, from, lf);
      out[to++] = 0x0d;
      out[to++] = 0x0a;
      from = lf + 1;
    }
    chunk.copy(out, to, from);
    return out;
  };
}

/**
 * The statement with its values written in as literals, for COPY (which takes no parameters). Postgres
 * quotes them (`quote_nullable`), so no quoting rule of ours stands between a value and the SQL. Each
 * literal is untyped, as the parameter it replaces was, and resolves to the same type from its place.
 * Placeholders are only replaced outside the statement's own quoted literals and identifiers.
 */
export async function withLiterals(sql: postgres.ReservedSql, statement: CsvStatement): Promise<string> {
  const texts = statement.params.map((value) =>
    value === null || value === undefined ? null : value instanceof Date ? value.toISOString() : String(value),
  );
  const [row] = await sql<{ quoted: string[] }[]>`
    select coalesce(array_agg(quote_nullable(p) order by i), '{}') as quoted
    from unnest(${texts}::text[]) with ordinality as u(p, i)`;
  const quoted = row?.quoted ?? [];
  return statement.sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\$(\d+)/g, (match, n: string | undefined) => {
    if (n === undefined) return match;
    const literal = quoted[Number(n) - 1];
    if (literal === undefined) throw new Error(`export: the statement has no value for $${n}`);
    return literal;
  });
}

/** What the body reads records from: chunks of CSV bytes, and how to stop early. */
interface RecordSource {
  next(): Promise<Uint8Array | null>;
  /** Stops the read early (the client went away); resolves once the connection is free for `rollback`. */
  stop(): Promise<void>;
}

/** What a paused stream holds now, or once it holds something; null at its end. */
function readSome(readable: Readable): Promise<Buffer | null> {
  const chunk = readable.read() as Buffer | null;
  if (chunk !== null) return Promise.resolve(chunk);
  if (readable.readableEnded) return Promise.resolve(null);
  if (readable.errored) return Promise.reject(readable.errored);
  if (readable.destroyed) return Promise.reject(new Error('export: the copy stopped before its end'));
  return new Promise((resolve, reject) => {
    const settle = () => {
      readable.off('readable', settle).off('end', settle).off('close', settle).off('error', settle);
      readSome(readable).then(resolve, reject);
    };
    readable.on('readable', settle).on('end', settle).on('close', settle).on('error', settle);
  });
}

/**
 * The rows copied out by Postgres, in chunks of about `CHUNK_BYTES`, records ending CRLF. Stopped early
 * by a cancel request (Postgres ends a COPY only when its backend is cancelled, and ignores a cancel
 * that finds it idle), sent on a connection of its own as postgres.js sends one, not through the pool,
 * which every export may hold.
 */
async function copySource(conn: postgres.ReservedSql, statement: CsvStatement): Promise<RecordSource> {
  const copy = conn.unsafe(`copy (${await withLiterals(conn, statement)}) to stdout with (format csv)`);
  const readable = await copy.readable();
  const crlf = crlfRecords();
  let done = false;
  const take = async () => {
    const read = await readSome(readable);
    if (read === null && !done) {
      done = true;
      // postgres.js pauses its socket while the stream is full and resumes it when the stream asks for
      // more, which an ended stream never does: the copy's last messages, and the connection, would wait.
      readable._read(0);
    }
    return read;
  };
  return {
    async next() {
      const pieces: Buffer[] = [];
      let bytes = 0;
      while (bytes < CHUNK_BYTES) {
        const read = await take();
        if (read === null) break;
        pieces.push(read);
        bytes += read.length;
      }
      return bytes ? crlf(pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces, bytes)) : null;
    },
    async stop() {
      if (done) return;
      // postgres.js counts a copy handed over as a stream as finished, and would not send the cancel.
      Object.assign(copy, { active: true });
      // What it had sent before the cancel is read and dropped; then its error ends the stream.
      try {
        await (copy.cancel() as unknown);
        while ((await take()) !== null) {}
      } catch {
        readable._read(0);
      }
    },
  };
}

/** The rows read through a cursor and written here, `around` reshaping them. */
function batchSource(
  conn: postgres.ReservedSql,
  rows: (sql: postgres.ReservedSql) => postgres.PendingQuery<postgres.Row[]>,
  around: CsvAround | undefined,
): RecordSource {
  const encoder = new TextEncoder();
  const batches = rows(conn).values().cursor(EXPORT_BATCH_ROWS)[Symbol.asyncIterator]();
  let ended = false;
  return {
    async next() {
      if (ended) return null;
      const batch = await batches.next();
      if (batch.done) {
        ended = true;
        const last = around?.end() ?? [];
        return last.length ? encoder.encode(last.map(csvRecord).join('')) : null;
      }
      let text = '';
      for (const row of batch.value) {
        const values = row as unknown as CsvValues;
        if (!around) text += csvRecord(values);
        else for (const record of around.row(values)) text += csvRecord(record);
      }
      return encoder.encode(text);
    },
    async stop() {
      if (!ended) await batches.return?.();
    },
  };
}

/**
 * Counts and then streams a query as CSV, in one read-only snapshot so the count is the body's row
 * count. The body is pulled: the next chunk is read only once the reader (the socket, through Next)
 * has taken the last, so a slow client holds the query back rather than filling memory. Cancelling
 * the body (the client went away) or `signal` stops the query and ends the transaction; the
 * connection is released either way.
 */
export async function openCsvExport(
  sql: postgres.Sql,
  query: CsvQuery,
  filename: string,
  signal?: AbortSignal,
): Promise<CsvExport> {
  const conn = await sql.reserve();
  let ended: Promise<void> | undefined;
  let source: RecordSource | undefined;
  let reading: Promise<unknown> = Promise.resolve();
  // After the read in flight (postgres.js can only close a cursor between batches).
  const end = () => {
    ended ??= reading
      .catch(() => {})
      .then(async () => {
        await source?.stop();
        // A second time should a cancel sent as the copy ended have landed on the first.
        await conn`rollback`.catch(() => conn`rollback`);
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
    source =
      'copy' in query.rows
        ? await copySource(conn, query.rows.copy)
        : batchSource(conn, query.rows.batches, query.around);
  } catch (error) {
    await end();
    throw error;
  }
  signal?.addEventListener('abort', end, { once: true });
  const open = source;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(new TextEncoder().encode(csvRecord(query.header)));
      },
      async pull(controller) {
        if (ended) return;
        const next = open.next();
        reading = next;
        try {
          const chunk = await next;
          if (ended) return;
          if (chunk === null) {
            await end();
            controller.close();
            return;
          }
          controller.enqueue(chunk);
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
