import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateDatabase } from '../drizzle/migrate';
import { createDb } from '../server/db';
import { databaseUrl, dropDatabase, testDatabaseName, withAdmin } from './support/databases';

/**
 * JIT off everywhere the product reads (#44): under generic plans a hash-prefix search of a 2M-swap table
 * was estimated past jit_above_cost and spent 41 of its 42 ms compiling (bench/README, "JIT").
 */
const name = testDatabaseName('db', randomBytes(5).toString('hex'));
const url = databaseUrl(name);

beforeAll(async () => {
  await withAdmin((sql) => sql.unsafe(`create database "${name}"`));
  await migrateDatabase(url);
});
afterAll(() => dropDatabase(name));

/** A session setting as the connection sees it (`show`); the name is one of this file's constants. */
const settingOf = async (sql: postgres.Sql, name: 'jit' | 'max_parallel_workers_per_gather') =>
  ((await sql.unsafe(`show ${name}`))[0] as Record<string, string>)[name];
const jitOf = (sql: postgres.Sql) => settingOf(sql, 'jit');
const parallelOf = (sql: postgres.Sql) => settingOf(sql, 'max_parallel_workers_per_gather');

it('is the migrated database’s default: any session, a pooler’s or the replica’s too, starts with JIT off', async () => {
  const plain = postgres(url, { max: 1, onnotice: () => {} });
  try {
    expect(await jitOf(plain)).toBe('off');
  } finally {
    await plain.end();
  }
});

it('is asked for by the product’s own direct connections even where the database’s default was left on', async () => {
  await withAdmin((sql) => sql.unsafe(`alter database "${name}" reset jit`));
  const direct = createDb({ url, poolMax: 1, connectTimeoutMs: 5000 });
  // Behind a transaction pooler no startup parameter is sent (the pooler would refuse it): the default holds.
  const pooled = createDb({ url, poolMax: 1, connectTimeoutMs: 5000, transactionPooled: true });
  try {
    expect(await jitOf(direct.sql)).toBe('off');
    expect(await jitOf(pooled.sql)).toBe('on');
  } finally {
    await Promise.all([direct.close(), pooled.close()]);
    await withAdmin((sql) => sql.unsafe(`alter database "${name}" set jit = off`));
  }
});

// The same for parallel query (0024): a search by hash at 10M planned a Gather Merge per branch of its merge,
// 20-30 ms of starting workers each for a read of a few buffers (bench/README, run 9).
it('starts every session, and the product’s direct connections, with parallel query off', async () => {
  const plain = postgres(url, { max: 1, onnotice: () => {} });
  try {
    expect(await parallelOf(plain)).toBe('0');
  } finally {
    await plain.end();
  }
  await withAdmin((sql) => sql.unsafe(`alter database "${name}" reset max_parallel_workers_per_gather`));
  const direct = createDb({ url, poolMax: 1, connectTimeoutMs: 5000 });
  const pooled = createDb({ url, poolMax: 1, connectTimeoutMs: 5000, transactionPooled: true });
  try {
    expect(await parallelOf(direct.sql)).toBe('0');
    expect(await parallelOf(pooled.sql)).toBe('2');
  } finally {
    await Promise.all([direct.close(), pooled.close()]);
    await withAdmin((sql) => sql.unsafe(`alter database "${name}" set max_parallel_workers_per_gather = 0`));
  }
});
