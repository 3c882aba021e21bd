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
  return {
    ctx: { ...app, sql, db: drizzle(sql, { schema }) } as AppContext,
    statements,
    close: () => sql.end({ timeout: 2 }),
  };
}

/**
 * Counts writes to a Redis connection's socket: each unpipelined command is one write, so one round trip.
 * With `naming`, only writes whose command names it (a client's key): other users of the connection
 * (a background flush, a fire-and-forget write finishing late on a busy machine) are not counted.
 */
export function countRedisWrites(redis: Redis, naming?: string) {
  const socket = (redis as unknown as { stream: { write: (...args: unknown[]) => boolean } }).stream;
  const write = socket.write.bind(socket);
  const counter = { writes: 0 };
  socket.write = (...args: unknown[]) => {
    const [data] = args;
    if (naming === undefined || (typeof data === 'string' || Buffer.isBuffer(data) ? data.includes(naming) : false))
      counter.writes++;
    return write(...args);
  };
  return counter;
}
