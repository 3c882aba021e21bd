import postgres from 'postgres';

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
export const TEST_DATABASE_PREFIX = 'switchyard_test_';

/** The server tests may create databases on; refuses anything but this machine. */
export function testServerUrl(): URL {
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres');
  if (!LOCAL_HOSTS.has(url.hostname)) {
    throw new Error(`Refusing to run tests against non-local database host ${url.hostname}`);
  }
  return url;
}

export function databaseUrl(name: string): string {
  const url = testServerUrl();
  url.pathname = `/${name}`;
  return url.toString();
}

/** Names carry their creation time so a later run can clear what a crashed run left behind. */
export function testDatabaseName(kind: 'tpl' | 'db', suffix: string): string {
  return `${TEST_DATABASE_PREFIX}${Math.floor(Date.now() / 1000)}_${kind}_${suffix}`;
}

export async function withAdmin<T>(work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(databaseUrl('postgres'), { max: 1, onnotice: () => {} });
  try {
    return await work(sql);
  } finally {
    await sql.end();
  }
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdmin((sql) => sql.unsafe(`drop database if exists "${name}" with (force)`));
}

export async function cloneTemplate(template: string, name: string): Promise<string> {
  await withAdmin((sql) => sql.unsafe(`create database "${name}" template "${template}"`));
  return databaseUrl(name);
}

/** Drops test databases more than two hours old: leftovers of runs that died. */
export async function dropAbandonedDatabases(): Promise<void> {
  const cutoff = Math.floor(Date.now() / 1000) - 2 * 3600;
  await withAdmin(async (sql) => {
    const rows = await sql<
      { datname: string }[]
    >`select datname from pg_database where datname like ${`${TEST_DATABASE_PREFIX}%`}`;
    for (const { datname } of rows) {
      const created = Number(datname.slice(TEST_DATABASE_PREFIX.length).split('_')[0]);
      if (!Number.isFinite(created) || created < cutoff) {
        await sql.unsafe(`drop database if exists "${datname}" with (force)`);
      }
    }
  });
}
