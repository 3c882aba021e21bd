import { migrateDatabase } from '../drizzle/migrate';
import { seedCatalog } from '../drizzle/seed/seed';
import { createDb } from '../server/db';
import { databaseUrl, dropDatabase, TEMPLATE_DATABASE, withAdmin } from './support/databases';

/** One migrated, seeded template; every test file clones its own database from it. */
export default async function setup() {
  await withAdmin(async (sql) => {
    const stale = await sql<
      { datname: string }[]
    >`select datname from pg_database where datname like 'switchyard_test_%'`;
    for (const { datname } of stale) await sql.unsafe(`drop database if exists "${datname}" with (force)`);
  });
  await dropDatabase(TEMPLATE_DATABASE);
  await withAdmin((sql) => sql.unsafe(`create database "${TEMPLATE_DATABASE}"`));
  const url = databaseUrl(TEMPLATE_DATABASE);
  await migrateDatabase(url);
  const handle = createDb({ url, poolMax: 1, connectTimeoutMs: 5000 });
  try {
    await seedCatalog(handle.db);
  } finally {
    await handle.close();
  }
}
