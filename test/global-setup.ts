import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { migrateDatabase } from '../drizzle/migrate';
import { seedCatalog } from '../drizzle/seed/seed';
import { createDb } from '../server/db';
import {
  databaseUrl,
  dropAbandonedDatabases,
  dropRunDatabases,
  runOf,
  testDatabaseName,
  withAdmin,
} from './support/databases';
import { deleteAbandonedPrefixKeys } from './support/redis-prefixes';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}

/**
 * One migrated, seeded template per run; every test file clones its own database from it. The teardown
 * drops them all, so no test's hook waits for a drop (each waits for a checkpoint on a busy server).
 */
export default async function setup(project: TestProject) {
  await dropAbandonedDatabases();
  await deleteAbandonedPrefixKeys();
  const template = testDatabaseName('tpl', randomBytes(3).toString('hex'));
  await withAdmin((sql) => sql.unsafe(`create database "${template}"`));
  const url = databaseUrl(template);
  await migrateDatabase(url);
  const handle = createDb({ url, poolMax: 1, connectTimeoutMs: 5000 });
  try {
    await seedCatalog(handle.db);
  } finally {
    await handle.close();
  }
  project.provide('templateDatabase', template);
  return async () => {
    await dropRunDatabases(runOf(template));
  };
}
