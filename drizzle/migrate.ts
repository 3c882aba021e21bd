import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { loadConfigOrExit } from '../server/lifecycle';

/** A migration file starting with this line runs statement by statement outside a transaction (CREATE INDEX CONCURRENTLY). */
export const NO_TRANSACTION = '-- switchyard:no-transaction';
const BREAKPOINT = '--> statement-breakpoint';
const LOCK_NOT_AVAILABLE = '55P03';
/** Every runner takes this advisory lock first, so two deploys cannot apply the same migration twice. */
const RUNNER_LOCK = 4_906_201;
const MIGRATIONS_FOLDER = new URL('./migrations', import.meta.url).pathname;

export interface Migration {
  tag: string;
  /** drizzle's bookkeeping: the journal's `when`, and the file's sha256. */
  when: number;
  hash: string;
  text: string;
  statements: string[];
  noTransaction: boolean;
}

export interface MigrateOptions {
  folder?: string;
  /** How long one statement may wait for a lock before the attempt is given up (and the tables' users go on). */
  lockTimeoutMs?: number;
  attempts?: number;
  retryDelayMs?: number;
  /** Told of each retry, which waits for it. */
  log?: (line: string) => void | Promise<void>;
}

/** The folder's migrations in journal order, as drizzle-kit wrote them. */
export function readMigrations(folder = MIGRATIONS_FOLDER): Migration[] {
  const journal = JSON.parse(readFileSync(`${folder}/meta/_journal.json`, 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  return journal.entries.map(({ tag, when }) => {
    const text = readFileSync(`${folder}/${tag}.sql`, 'utf8');
    return {
      tag,
      when,
      hash: createHash('sha256').update(text).digest('hex'),
      text,
      statements: text.split(BREAKPOINT).filter((statement) => statement.trim()),
      noTransaction: text.trimStart().startsWith(NO_TRANSACTION),
    };
  });
}

const isLockTimeout = (error: unknown) => (error as { code?: string }).code === LOCK_NOT_AVAILABLE;

/**
 * Applies the migrations not applied yet, one transaction each (or statement by statement for a
 * no-transaction file), every statement under `lock_timeout`: a migration waiting behind a long
 * transaction gives up after `lockTimeoutMs` instead of queueing every read and write of its table
 * behind itself, and is tried again up to `attempts` times. Keeps drizzle's bookkeeping table, so
 * databases migrated by drizzle's own migrator carry on from where they are.
 */
export async function migrateDatabase(url: string, options: MigrateOptions = {}): Promise<void> {
  const {
    folder = MIGRATIONS_FOLDER,
    lockTimeoutMs = 5_000,
    attempts = 5,
    retryDelayMs = 2_000,
    log = (line: string) => console.warn(line),
  } = options;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${RUNNER_LOCK})`;
    await sql`create schema if not exists drizzle`;
    await sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`;
    const [last] = await sql<{ created_at: string }[]>`
      select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`;
    const pending = readMigrations(folder).filter((m) => !last || Number(last.created_at) < m.when);
    for (const migration of pending) {
      for (let attempt = 1; ; attempt++) {
        try {
          await apply(sql, migration, lockTimeoutMs);
          break;
        } catch (error) {
          if (!isLockTimeout(error)) throw error;
          const what = `migration ${migration.tag} waited ${lockTimeoutMs} ms for a lock (attempt ${attempt} of ${attempts})`;
          if (attempt >= attempts)
            throw new Error(
              `${what}: giving up. A long transaction holds a table it changes; ${migration.noTransaction ? 'statements before the one waiting were applied (each is safe to run again)' : 'nothing of it was applied'}. Run it again once that transaction ends.`,
              { cause: error },
            );
          await log(`${what}; trying again in ${retryDelayMs} ms`);
          await sleep(retryDelayMs);
        }
      }
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function apply(sql: postgres.Sql, migration: Migration, lockTimeoutMs: number) {
  const record = (q: postgres.Sql | postgres.TransactionSql) =>
    q`insert into drizzle.__drizzle_migrations (hash, created_at) values (${migration.hash}, ${migration.when})`;
  if (!migration.noTransaction) {
    await sql.begin(async (tx) => {
      await tx.unsafe(`set local lock_timeout = ${Number(lockTimeoutMs)}`);
      for (const statement of migration.statements) await tx.unsafe(statement);
      await record(tx);
    });
    return;
  }
  await sql.unsafe(`set lock_timeout = ${Number(lockTimeoutMs)}`);
  try {
    for (const statement of migration.statements) {
      await dropInvalidIndex(sql, statement);
      await sql.unsafe(statement);
    }
    await record(sql);
  } finally {
    await sql.unsafe('reset lock_timeout');
  }
}

const CONCURRENT_INDEX = /create\s+(?:unique\s+)?index\s+concurrently\s+(?:if\s+not\s+exists\s+)?("[^"]+"|\w+)/i;

/**
 * A CREATE INDEX CONCURRENTLY that failed (a lock timeout while it waited for older transactions)
 * leaves its index behind, invalid; `if not exists` would then keep it. Running the statement again
 * drops such a leftover first.
 */
async function dropInvalidIndex(sql: postgres.Sql, statement: string) {
  const name = CONCURRENT_INDEX.exec(statement)?.[1]?.replace(/^"|"$/g, '');
  if (!name) return;
  const [invalid] = await sql`
    select 1 from pg_index i join pg_class c on c.oid = i.indexrelid
    where c.relname = ${name} and c.relnamespace = current_schema()::regnamespace and not i.indisvalid`;
  if (invalid) await sql.unsafe(`drop index concurrently if exists "${name.replaceAll('"', '""')}"`);
}

/** Creates the database named in `url` when it does not exist yet (after dropping it, with `reset`). */
export async function ensureDatabase(url: string, { reset = false } = {}): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const sql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  try {
    if (reset) await sql.unsafe(`drop database if exists "${name.replaceAll('"', '""')}" with (force)`);
    const [row] = await sql`select 1 as found from pg_database where datname = ${name}`;
    if (!row) await sql.unsafe(`create database "${name.replaceAll('"', '""')}"`);
  } finally {
    await sql.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { databaseUrl } = loadConfigOrExit('migrate');
  await ensureDatabase(databaseUrl, { reset: process.argv.includes('--reset') });
  await migrateDatabase(databaseUrl);
  console.log('database migrated');
}
