import { drizzle } from 'drizzle-orm/postgres-js';
import type { Redis } from 'ioredis';
import postgres from 'postgres';
import * as schema from '../../drizzle/schema';
import type { AppContext } from '../../server/context';

/** The app's context on a Postgres client of its own that records every statement it sends. */
export function countingContext(app: AppContext) {
  const statements: string[] = [];
  const sql = postgres(app.config.databaseUrl, {
    max: 2,
    onnotice: () => {},
    debug: (_connection, query) => statements.push(query),
  });
  return { ctx: { ...app, sql, db: drizzle(sql, { schema }) } as AppContext, statements, close: () => sql.end() };
}

/** Counts writes to a Redis connection's socket: each unpipelined command is one write, so one round trip. */
export function countRedisWrites(redis: Redis) {
  const socket = (redis as unknown as { stream: { write: (...args: unknown[]) => boolean } }).stream;
  const write = socket.write.bind(socket);
  const counter = { writes: 0 };
  socket.write = (...args: unknown[]) => {
    counter.writes++;
    return write(...args);
  };
  return counter;
}
