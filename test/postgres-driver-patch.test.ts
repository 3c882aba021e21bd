import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { testServerUrl } from './support/databases';

// postgres.js 3.4.9 defers small writes with setImmediate; when Postgres restarts and the socket
// closes first, the deferred write dereferences the nulled socket from a timer and the uncaught
// TypeError kills the process (found by the soak's Postgres restarts; upstream porsager/postgres#1154).
// patches/postgres+3.4.9.patch (applied by `patch-package` on install) makes that write a no-op.
// The package's CommonJS entry is cjs/src/index.js; the driver's root is two levels up.
const root = dirname(dirname(dirname(createRequire(import.meta.url).resolve('postgres'))));

describe('the installed postgres.js driver', () => {
  for (const build of ['src', 'cjs/src']) {
    it(`${build}: a deferred write after the socket closed is dropped, not thrown`, () => {
      const source = readFileSync(join(root, build, 'connection.js'), 'utf8');
      const nextWrite = source.slice(source.indexOf('function nextWrite(fn) {'));
      expect(nextWrite.indexOf('if (!socket)')).toBeGreaterThan(0);
      expect(nextWrite.indexOf('if (!socket)')).toBeLessThan(nextWrite.indexOf('socket.write('));
    });

    // Behind PgBouncer a client logs in while the server is down, and the array-type query that follows fails.
    it(`${build}: a failed array-type fetch is handled (and retried at the next connect)`, () => {
      const source = readFileSync(join(root, build, 'connection.js'), 'utf8');
      expect(source).toContain('return fetchArrayTypes().catch(() => needsTypes = true)');
    });

    // With max_pipeline 0 (DATABASE_POOLER=transaction: nothing pipelined through PgBouncer) a transaction's
    // `begin` must still learn its connection: the driver called `onexecute` only while the pipeline had room.
    it(`${build}: a query's onexecute runs before the pipeline check`, () => {
      const source = readFileSync(join(root, build, 'connection.js'), 'utf8');
      const execute = source.slice(source.indexOf('return write(toBuffer(q))'));
      expect(execute.indexOf('q.options.onexecute(connection)')).toBeGreaterThan(0);
      expect(execute.indexOf('q.options.onexecute(connection)')).toBeLessThan(
        execute.indexOf('sent.length < max_pipeline'),
      );
    });
  }

  // The soak's scaled runs 6, 8 and 10: after a PgBouncer restart one web process answered CONNECT_TIMEOUT
  // once per connect timeout for ~45 s while PgBouncer served everyone else. A connection whose socket
  // closed with a small write still deferred kept the cancelled timer's id and the unsent bytes, so every
  // later write on it (the next login's StartupMessage) joined the stale bytes and waited for a timer that
  // never fires, until they passed 1,024 bytes and PgBouncer got them as one "bad packet" (as
  // LanternOps/breeze#3225 found). Both teardown paths now drop the deferred write.
  it('a connection that closed with a write deferred logs in again', async () => {
    const server = testServerUrl();
    let current: Socket | undefined;
    // `socket` (a factory of connected sockets) is documented, though the package's types leave it out.
    const options = {
      max: 1,
      connect_timeout: 2,
      fetch_types: false,
      prepare: false,
      onnotice: () => {},
      socket: () =>
        new Promise<Socket>((resolve, reject) => {
          const socket = connect(Number(server.port || 5432), server.hostname, () => resolve(socket));
          socket.once('error', reject);
          current = socket;
        }),
    };
    const sql = postgres(server.toString(), options as postgres.Options<Record<string, never>>);
    try {
      expect(await sql`select 1 as one`).toEqual([{ one: 1 }]);
      // Runs before the driver's own deferred write (immediates run in order): the socket closes first.
      setImmediate(() => {
        const closing = current as Socket;
        closing.destroy();
        closing.emit('close', false);
      });
      const cut = await sql`select 2 as two`.execute().catch((error: unknown) => error);
      expect((cut as { code?: string }).code).toBe('CONNECTION_CLOSED');
      expect(await sql`select 3 as three`).toEqual([{ three: 3 }]);
    } finally {
      await sql.end({ timeout: 1 });
    }
  });
});
