import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from '../drizzle/schema';

export type Database = PostgresJsDatabase<typeof schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Verbs that must compose with a caller's transaction take an Executor and use it for every statement. */
export type Executor = Database | Transaction;

export interface DbHandle {
  db: Database;
  sql: postgres.Sql;
  close(): Promise<void>;
}

export interface DbOptions {
  url: string;
  poolMax: number;
  connectTimeoutMs: number;
}

export function createDb({ url, poolMax, connectTimeoutMs }: DbOptions): DbHandle {
  const sql = postgres(url, {
    max: poolMax,
    connect_timeout: connectTimeoutMs / 1000,
    idle_timeout: 30,
    onnotice: () => {},
    connection: { application_name: 'switchyard' },
  });
  const db = drizzle(sql, { schema });
  return { db, sql, close: () => sql.end({ timeout: 2 }) };
}

/** An ILIKE pattern matching `term` anywhere, with the LIKE wildcards in it escaped. */
export const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
