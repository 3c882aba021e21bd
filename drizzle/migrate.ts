import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { loadConfigOrExit } from '../server/lifecycle';

export async function migrateDatabase(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrate(drizzle(sql), { migrationsFolder: new URL('./migrations', import.meta.url).pathname });
  } finally {
    await sql.end();
  }
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
