import 'server-only';
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
  /**
   * Behind a transaction-pooling proxy (PgBouncer `pool_mode = transaction`) consecutive statements may
   * run on different server connections, so a statement prepared by name on one is unknown on the next:
   * every statement is then sent unnamed (drizzle's `.prepare()` keeps working, it only stops caching).
   * Nor is a statement sent behind another on the same connection (pipelined): the proxy hands the
   * server back at the first one's end, and the answer to the second then reaches no one.
   */
  transactionPooled?: boolean;
}

export function createDb({ url, poolMax, connectTimeoutMs, transactionPooled = false }: DbOptions): DbHandle {
  const sql = postgres(url, {
    max: poolMax,
    connect_timeout: connectTimeoutMs / 1000,
    idle_timeout: 30,
    prepare: !transactionPooled,
    ...(transactionPooled && { max_pipeline: 0 }),
    onnotice: () => {},
    // JIT compiles any statement whose estimate passes jit_above_cost, and parallel query starts workers past
    // its own thresholds; a generic plan's estimates grow with the table: tens of ms of compiling or of starting
    // workers for a read of a few buffers (migrations 0021 and 0024). A pooler refuses startup parameters
    // it does not know, so behind one only the database's defaults hold.
    connection: {
      application_name: 'switchyard',
      ...(!transactionPooled && { jit: 'off', max_parallel_workers_per_gather: '0' }),
    },
  });
  const db = drizzle(sql, { schema });
  return { db, sql, close: () => sql.end({ timeout: 2 }) };
}

/**
 * What `LISTEN` runs on: a connection that stays this client's between statements (postgres.js holds it
 * apart from the pool). A transaction pooler hands each transaction any server connection, so a
 * `LISTEN` through it hears nothing: behind one, only a direct `DATABASE_LISTEN_URL` can listen.
 */
export function listenSqlOf(
  handle: DbHandle,
  {
    listenUrl,
    transactionPooled,
    connectTimeoutMs,
  }: { listenUrl?: string; transactionPooled: boolean; connectTimeoutMs: number },
): postgres.Sql | undefined {
  if (!listenUrl) return transactionPooled ? undefined : handle.sql;
  return postgres(listenUrl, {
    max: 1,
    connect_timeout: connectTimeoutMs / 1000,
    onnotice: () => {},
    connection: { application_name: 'switchyard-listen' },
  });
}

/** An ILIKE pattern matching `term` anywhere, with the LIKE wildcards in it escaped. */
export const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
