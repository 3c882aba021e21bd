import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRecord } from '../server/exports/csv';
import { type CsvStatement, openCsvExport, withLiterals } from '../server/exports/stream';
import { csvText } from '../server/exports/transactions';
import { startTestApp, type TestApp } from './support/app';

/** The COPY path of the exports: Postgres writes the CSV, so it must write what `csvCell` would, byte for byte. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(() => t?.stop());

const dialect = new PgDialect();
const statement = (query: SQL): CsvStatement => dialect.sqlToQuery(query);

const HOSTILE = [
  '=1+2',
  '+x',
  '-5',
  '@SUM(A1)',
  '\tTAB',
  '\rCR',
  'a"b',
  'a,b',
  'line one\nline two',
  'line one\r\nline two',
  'ends with a line break\n',
  '"starts quoted',
  "it's",
  "''",
  'back\\slash',
  '$1',
  'USD₮0 naïve',
  '',
  null,
  'plain',
];

const bodyText = async (body: ReadableStream<Uint8Array>) => new Response(body).text();

describe('an export copied out by Postgres', () => {
  it('writes every cell as csvCell does: formulas neutralised, quoted per RFC 4180, records ending CRLF', async () => {
    const rows = sql.join(
      HOSTILE.map((value, i) => sql`(${i}::int, ${value}::text)`),
      sql`, `,
    );
    const copied = statement(
      sql`select ${csvText(sql`v`)}, ${csvText(sql`'#' || i`)} from (values ${rows}) as x(i, v) order by i`,
    );
    const csv = await openCsvExport(
      t.app.sql,
      { header: ['value', 'index'], count: (conn) => conn`select ${HOSTILE.length}`, rows: { copy: copied } },
      'x.csv',
    );
    expect(csv.total).toBe(HOSTILE.length);
    expect(await bodyText(csv.body)).toBe(
      csvRecord(['value', 'index']) + HOSTILE.map((value, i) => csvRecord([value, `#${i}`])).join(''),
    );
  });

  it("keeps records whole across the body's chunks, quoted line breaks included", async () => {
    // About 1 MB: many chunks, and chunk ends that fall inside quoted fields.
    const long = `"quoted", with\nline breaks\r\n${'x'.repeat(300)}`;
    const copied = statement(
      sql`select ${csvText(sql`g::text`)}, ${csvText(sql`${long}::text || g`)} from generate_series(1, 3000) g order by g`,
    );
    const csv = await openCsvExport(
      t.app.sql,
      { header: ['n', 'text'], count: (conn) => conn`select 3000`, rows: { copy: copied } },
      'x.csv',
    );
    const expected = Array.from({ length: 3000 }, (_, i) => csvRecord([String(i + 1), `${long}${i + 1}`])).join('');
    expect(await bodyText(csv.body)).toBe(csvRecord(['n', 'text']) + expected);
  });

  it('writes values in as literals Postgres quoted, outside the statement’s own literals', async () => {
    const values = [
      "a'b",
      'back\\slash',
      '$2',
      "'; drop table transactions; --",
      null,
      new Date('2026-01-02T03:04:05.678Z'),
    ];
    const query = sql`select '$1 stays' as own, ${values[0]}::text, ${values[1]}::text, ${values[2]}::text,
      ${values[3]}::text, ${values[4]}::text is null, ${values[5]}::timestamptz = '2026-01-02T03:04:05.678Z'`;
    const bound = statement(query);
    const conn = await t.app.sql.reserve();
    try {
      const literal = await withLiterals(conn, bound);
      const [byLiterals] = await conn.unsafe(literal.replace("'$1 stays'", "'x'")).values();
      const params = bound.params.map((value) => (value instanceof Date ? value.toISOString() : value));
      const [byParameters] = await conn.unsafe(bound.sql.replace("'$1 stays'", "'x'"), params as never[]).values();
      expect(byLiterals).toEqual(byParameters);
      expect(byLiterals).toEqual(['x', ...values.slice(0, 4), true, true]);
      expect(await withLiterals(conn, statement(sql`select '$1 stays', ${'v'}::text`))).toBe(
        "select '$1 stays', 'v'::text",
      );
    } finally {
      conn.release();
    }
  });
});
