import postgres from 'postgres';

export const TEMPLATE_DATABASE = 'switchyard_test_template';
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

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

export async function cloneTemplate(name: string): Promise<string> {
  await withAdmin((sql) => sql.unsafe(`create database "${name}" template "${TEMPLATE_DATABASE}"`));
  return databaseUrl(name);
}
