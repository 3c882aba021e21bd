import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MigrateOptions, migrateDatabase, NO_TRANSACTION, readMigrations } from '../drizzle/migrate';
import { databaseUrl, testDatabaseName, withAdmin } from './support/databases';
import { blockingForms } from './support/migration-safety';

/** Rows in the table the expand migration changes; MIGRATION_TEST_ROWS=10000000 for a closer look. */
const ROWS = Number(process.env.MIGRATION_TEST_ROWS ?? 1_000_000);
const LOAD = 'migration-probe-load';

const name = testDatabaseName('db', `mig${randomBytes(4).toString('hex')}`);
const url = databaseUrl(name);
const folders: string[] = [];
let sql: postgres.Sql;

beforeAll(async () => {
  await withAdmin((admin) => admin.unsafe(`create database "${name}"`));
  sql = postgres(url, { max: 2, onnotice: () => {} });
}, 60_000);
afterAll(async () => {
  await sql?.end({ timeout: 2 });
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A migrations folder holding `files` in order, as drizzle-kit lays one out. */
function migrationsFolder(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'migrations-'));
  folders.push(folder);
  mkdirSync(join(folder, 'meta'));
  const entries = Object.entries(files).map(([tag, text], idx) => {
    writeFileSync(join(folder, `${tag}.sql`), text);
    return { idx, version: '7', when: 1_800_000_000_000 + idx, tag, breakpoints: true };
  });
  writeFileSync(join(folder, 'meta/_journal.json'), JSON.stringify({ version: '7', dialect: 'postgresql', entries }));
  return folder;
}

async function freshTable(table: string, rows: number) {
  await sql.unsafe(`drop table if exists "${table}"`);
  await sql.unsafe(
    `create table "${table}" (id bigint primary key, account integer not null, amount numeric not null)`,
  );
  await sql.unsafe(`insert into "${table}" select g, g % 1000, g from generate_series(1, ${rows}) g`);
  await sql.unsafe('delete from drizzle.__drizzle_migrations').catch(() => {});
}

/** A connection inside an open transaction that has read `table`, so holds a lock on it and a snapshot. */
async function openReader(table: string) {
  const reserved = await sql.reserve();
  await reserved.unsafe('begin isolation level repeatable read');
  await reserved.unsafe(`select count(*) from "${table}" where id = 1`);
  return {
    async end() {
      await reserved.unsafe('commit');
      reserved.release();
    },
  };
}

/**
 * Reads and writes `table` on connections of their own while `during` runs, and samples every 50 ms
 * how long any of them has been waiting for a lock (pg_locks.waitstart): what a deploy's requests
 * would feel, measured by Postgres rather than by this machine's clock.
 */
async function underLoad(table: string, during: () => Promise<void>) {
  const load = postgres(url, { max: 4, onnotice: () => {}, connection: { application_name: LOAD } });
  const watch = postgres(url, { max: 1, onnotice: () => {} });
  let running = true;
  const done = { reads: 0, writes: 0 };
  let longestWaitSeconds = 0;
  let samples = 0;
  const id = () => 1 + Math.floor(Math.random() * ROWS);
  let inserted = ROWS;
  const loop = async (work: () => Promise<unknown>, count: 'reads' | 'writes') => {
    while (running) {
      await work();
      done[count]++;
    }
  };
  const clients = [
    loop(() => load`select * from ${load(table)} where id = ${id()}`, 'reads'),
    loop(() => load`select count(*) from ${load(table)} where account = ${id() % 1000} and id < 2000`, 'reads'),
    loop(() => load`update ${load(table)} set amount = amount + 1 where id = ${id()}`, 'writes'),
    loop(() => load`insert into ${load(table)} values (${++inserted}, 1, 1)`, 'writes'),
  ];
  const sampler = (async () => {
    while (running) {
      const [row] = await watch<{ longest: number }[]>`
        select coalesce(max(extract(epoch from clock_timestamp() - l.waitstart)), 0)::float8 as longest
        from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where not l.granted and a.application_name = ${LOAD}`;
      longestWaitSeconds = Math.max(longestWaitSeconds, row?.longest ?? 0);
      samples++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  while (done.reads === 0 || done.writes === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  const before = { ...done };
  let counted = before;
  try {
    await during();
  } finally {
    counted = { reads: done.reads - before.reads, writes: done.writes - before.writes };
    running = false;
    await Promise.all([...clients, sampler]);
    await Promise.all([load.end({ timeout: 5 }), watch.end({ timeout: 5 })]);
  }
  return { longestWaitSeconds, samples, during: counted };
}

const EXPAND = {
  '0000_add_note': 'ALTER TABLE "probe" ADD COLUMN "note" text DEFAULT \'none\' NOT NULL;',
  '0001_index_note': `${NO_TRANSACTION}\nCREATE INDEX CONCURRENTLY IF NOT EXISTS "probe_note_idx" ON "probe" ("note", "id");`,
};

describe(`an expand migration on a table of ${ROWS.toLocaleString('en-US')} rows`, () => {
  it('is one the safety check passes (the probe table stands in for a large one)', () => {
    const folder = migrationsFolder(EXPAND);
    const probeAsLarge = readMigrations(folder).map((m) => ({
      ...m,
      statements: m.statements.map((s) => s.replaceAll('"probe"', '"transactions"')),
    }));
    expect(probeAsLarge.flatMap(blockingForms)).toEqual([]);
  });

  it('applies while reads and writes go on, none of them waiting a second for a lock', async () => {
    await freshTable('probe', ROWS);
    const folder = migrationsFolder(EXPAND);
    const seen = await underLoad('probe', () => migrateDatabase(url, { folder, log: () => {} }));
    expect(seen.samples).toBeGreaterThan(0);
    expect(seen.during.reads).toBeGreaterThan(0);
    expect(seen.during.writes).toBeGreaterThan(0);
    expect(seen.longestWaitSeconds).toBeLessThan(1);
    const [index] = await sql`
      select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = 'probe_note_idx'`;
    expect(index?.valid).toBe(true);
  }, 120_000);

  it('the measure sees a blocking one: an index built under lock makes writers wait (here held 1.5 s)', async () => {
    await freshTable('probe_blocking', 10_000);
    const folder = migrationsFolder({
      '0000_index_under_lock': `CREATE INDEX "probe_blocking_idx" ON "probe_blocking" ("account");--> statement-breakpoint
SELECT pg_sleep(1.5);`,
    });
    const seen = await underLoad('probe_blocking', () => migrateDatabase(url, { folder, log: () => {} }));
    expect(seen.longestWaitSeconds).toBeGreaterThan(1);
  }, 60_000);
});

describe('the lock timeout on every migration', () => {
  const quick: MigrateOptions = { lockTimeoutMs: 200, attempts: 2, retryDelayMs: 0 };

  it('gives up behind a long transaction with a clear message, and applies nothing', async () => {
    await freshTable('held', 10);
    const folder = migrationsFolder({ '0000_add_column': 'ALTER TABLE "held" ADD COLUMN "c" text;' });
    const reader = await openReader('held');
    const lines: string[] = [];
    try {
      await expect(migrateDatabase(url, { ...quick, folder, log: (line) => void lines.push(line) })).rejects.toThrow(
        'migration 0000_add_column waited 200 ms for a lock (attempt 2 of 2): giving up. A long transaction holds a table it changes; nothing of it was applied.',
      );
    } finally {
      await reader.end();
    }
    expect(lines).toEqual([
      'migration 0000_add_column waited 200 ms for a lock (attempt 1 of 2); trying again in 0 ms',
    ]);
    const columns = await sql`select column_name from information_schema.columns where table_name = 'held'`;
    expect(columns.map((c) => c.column_name)).not.toContain('c');
    const [recorded] = await sql`select count(*)::int as n from drizzle.__drizzle_migrations`;
    expect(recorded?.n).toBe(0);
  });

  it('tries again, and succeeds once the transaction in its way has ended', async () => {
    await freshTable('held', 10);
    const folder = migrationsFolder({ '0000_add_column': 'ALTER TABLE "held" ADD COLUMN "c" text;' });
    const reader = await openReader('held');
    await migrateDatabase(url, { ...quick, folder, log: () => reader.end() });
    const columns = await sql`select column_name from information_schema.columns where table_name = 'held'`;
    expect(columns.map((c) => c.column_name)).toContain('c');
  });

  it('replaces, when it tries a concurrent index again, the invalid index its timeout left behind', async () => {
    await freshTable('held', 10);
    const folder = migrationsFolder({
      '0000_index': `${NO_TRANSACTION}\nCREATE INDEX CONCURRENTLY IF NOT EXISTS "held_account_idx" ON "held" ("account");`,
    });
    const reader = await openReader('held');
    const leftBehind: boolean[] = [];
    await migrateDatabase(url, {
      ...quick,
      folder,
      log: async () => {
        const [index] = await sql`
          select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = 'held_account_idx'`;
        leftBehind.push(index?.valid);
        await reader.end();
      },
    });
    expect(leftBehind).toEqual([false]);
    const [index] = await sql`
      select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = 'held_account_idx'`;
    expect(index?.valid).toBe(true);
  });

  it('is taken by one runner at a time: two deploys migrating at once apply each migration once', async () => {
    await sql.unsafe('drop table if exists "once"');
    await sql.unsafe('delete from drizzle.__drizzle_migrations').catch(() => {});
    // Slow enough that the second runner reads what is applied while the first is still applying it.
    const folder = migrationsFolder({
      '0000_once': 'CREATE TABLE "once" ("id" integer);--> statement-breakpoint\nSELECT pg_sleep(1);',
    });
    await Promise.all([migrateDatabase(url, { folder }), migrateDatabase(url, { folder })]);
    const [recorded] = await sql`select count(*)::int as n from drizzle.__drizzle_migrations`;
    expect(recorded?.n).toBe(1);
  });
});
