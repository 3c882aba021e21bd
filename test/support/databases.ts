import postgres from 'postgres';
import { inject } from 'vitest';

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

/**
 * Names carry their creation time, so a later run can clear what a crashed run left behind, and their run
 * (the template's suffix), so the run's global teardown drops them all: `db` names are `<time>_db_<run>_<suffix>`.
 */
export function testDatabaseName(kind: 'tpl' | 'db', suffix: string): string {
  return kind === 'tpl' ? namedFor(suffix) : namedFor(runOf(inject('templateDatabase')), suffix);
}

/** The template of `run`, or with a `suffix` one of its scratch databases. */
export const namedFor = (run: string, suffix?: string) =>
  `${TEST_DATABASE_PREFIX}${Math.floor(Date.now() / 1000)}_${suffix === undefined ? `tpl_${run}` : `db_${run}_${suffix}`}`;

export const runOf = (template: string) => template.slice(template.lastIndexOf('_tpl_') + '_tpl_'.length);

const ofRun = (name: string, run: string) =>
  name.startsWith(TEST_DATABASE_PREFIX) && (name.endsWith(`_tpl_${run}`) || name.includes(`_db_${run}_`));

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

/**
 * Drops the template and every scratch database of `run`, a few at a time (each drop waits for a checkpoint,
 * which a busy server makes slow): the global teardown's work, so no test's own hook waits for it.
 */
export async function dropRunDatabases(run: string, concurrency = 4): Promise<string[]> {
  const names = await withAdmin(async (sql) =>
    (await sql<{ datname: string }[]>`select datname from pg_database where datname like ${`${TEST_DATABASE_PREFIX}%`}`)
      .map((row) => row.datname)
      .filter((name) => ofRun(name, run)),
  );
  const queue = [...names];
  const dropNext = async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) await dropDatabase(name);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, dropNext));
  return names;
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
